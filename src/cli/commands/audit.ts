import { seg } from '../client.js';
import { formatValue, table, type View } from '../output.js';
import { type CommandGroup, integer } from './shared.js';

interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: string;
  subject_type: string;
  subject_id: string;
  detail: unknown;
  request_id: string | null;
}

/** `-q` gives the cursor of the next page, so a script can page until it prints nothing. */
const auditView: View = {
  primary: (page) => page.next_cursor,
  human: (answer) => {
    const page = answer as unknown as { items: AuditEntry[]; next_cursor: string | null };
    if (page.items.length === 0) return '(no entries)';
    const rows = page.items.map((e) => [
      e.at,
      e.action,
      `${e.subject_type} ${e.subject_id}`,
      e.actor,
      formatValue(e.request_id),
      formatValue(e.detail),
    ]);
    const out = table(['AT', 'ACTION', 'SUBJECT', 'ACTOR', 'REQUEST', 'DETAIL'], rows);
    return page.next_cursor ? `${out}\n\nmore: add --cursor ${page.next_cursor}` : out;
  },
};

export const auditCommands: CommandGroup = (program, ctx) => {
  program
    .command('audit')
    .description("an organization's audit log, newest first")
    .argument('<org_id>')
    .option('--limit <n>', 'entries per page, 1 to 1000 (default 100)', integer)
    .option(
      '--action <action>',
      'only this action (key.issued), or a prefix ending in * (buyer_report.*, quoted in a shell)',
    )
    .option(
      '--subject-id <id>',
      'only entries about this subject: the id after the type in SUBJECT (key_…, call_…)',
    )
    .option('--since <iso>', 'entries at or after this time')
    .option('--until <iso>', 'entries before this time')
    .option('--cursor <cursor>', 'the page after the one that printed it')
    .action((orgId: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'GET',
          path: `/admin/orgs/${seg(orgId)}/audit`,
          query: {
            limit: o.limit,
            action: o.action,
            subject_id: o.subjectId,
            since: o.since,
            until: o.until,
            cursor: o.cursor,
          },
        },
        auditView,
      ),
    );
};
