import { type Command, Option, type OptionValues } from 'commander';
import { SUPPRESSION_LISTS } from '../../domain/vocabulary.js';
import { type ApiRequest, seg } from '../client.js';
import { type Answer, fields, formatValue, type View } from '../output.js';
import { col, listView, paged, pageQuery } from './listing.js';
import type { CliSession, CommandGroup } from './shared.js';
import { importExit, uploadFile } from './upload.js';

const LISTS = SUPPRESSION_LISTS;
const base = (orgId: string, list: string) => `/admin/orgs/${seg(orgId)}/suppression/${seg(list)}`;
const entryView: View = { primary: (e) => e.e164 ?? e.removed, human: (e) => fields(e, []) };

interface Rejected {
  line: number;
  error: string;
}

export function suppressionImportSummary(summary: Answer): string {
  const rejected = Array.isArray(summary.rejected) ? (summary.rejected as Rejected[]) : [];
  const count = Number(summary.rejected_count ?? rejected.length);
  const lines = [
    `${formatValue(summary.list)} list dated ${formatValue(summary.listed_on)}: ${formatValue(summary.rows)} rows, ` +
      `${formatValue(summary.added)} added, ${formatValue(summary.removed)} removed, ${count} rejected`,
    ...rejected.map((r) => `  line ${r.line}: ${r.error}`),
  ];
  if (count > rejected.length) lines.push(`  … ${count - rejected.length} more not listed`);
  return lines.join('\n');
}

const importView: View = { primary: (s) => s.added, human: suppressionImportSummary };

async function importFile(
  s: CliSession,
  orgId: string,
  list: string,
  file: string,
  query: URLSearchParams,
): Promise<number> {
  const qs = query.toString();
  const path = `${base(orgId, list)}/import${qs ? `?${qs}` : ''}`;
  return importExit(await uploadFile(s, file, { path, contentType: 'text/plain' }, importView));
}

const IMPORT_AFTER = `
FILE holds one number a line: E.164, 10 digits or AREACODE,NUMBER; further
columns: a state code (state lists) and A/D (change files: D deletes). It is
streamed, so any size works; on a terminal a progress bar is drawn on stderr.
--replace makes the file the whole list for what it covers (the national list:
its area codes). -q prints the number of entries written.
Exit 65 when any line was rejected (the valid lines are still imported), as consent import.`;

export const suppressionCommands: CommandGroup = (program, ctx) => {
  const sup = program
    .command('suppression')
    .description('do-not-call, state and litigator lists per organization');
  const listArg = new Option('--list <list>', 'which list').choices(LISTS).makeOptionMandatory();
  /** `sup <name> <org_id> <e164> --list <list>`: a command about one entry of a list. */
  const entry = (name: string, description: string) =>
    sup
      .command(name)
      .description(description)
      .argument('<org_id>')
      .argument('<e164>')
      .addOption(listArg);
  const sendEntry =
    (method: ApiRequest['method'], body?: (o: OptionValues) => Record<string, unknown>) =>
    (orgId: string, e164: string, o: OptionValues, cmd: Command) =>
      ctx.send(
        cmd,
        { method, path: `${base(orgId, o.list)}/${seg(e164)}`, body: body?.(o) },
        entryView,
      );

  sup
    .command('import')
    .description('import a list file (national registry, state, litigator or internal)')
    .argument('<org_id>')
    .argument('<file>')
    .addOption(listArg)
    .option('--replace', 'the file is the complete list for the area codes or states it covers')
    .option('--list-date <date>', 'the date of the registry copy (YYYY-MM-DD, default today)')
    .option('--source <source>', 'where the file came from')
    .option('--state <XX>', 'the state of every line of a state list without a state column')
    .addHelpText('after', IMPORT_AFTER)
    .action((orgId: string, file: string, o, cmd) => {
      const q = new URLSearchParams();
      if (o.replace) q.set('mode', 'replace');
      if (o.listDate) q.set('list_date', o.listDate);
      if (o.source) q.set('source', o.source);
      if (o.state) q.set('state', o.state);
      return ctx.stream(cmd, (session) => importFile(session, orgId, o.list, file, q));
    });

  entry('add', 'add or update one entry')
    .option('--source <source>', 'where the request came from')
    .option('--list-date <date>', 'the list date (default today)')
    .option('--state <XX>', 'state lists: the state')
    .action(sendEntry('PUT', (o) => ({ source: o.source, list_date: o.listDate, state: o.state })));

  paged(sup.command('list').description("list one of the organization's lists in number order"))
    .argument('<org_id>')
    .addOption(listArg)
    .option('--state <XX>', 'state lists: only this state')
    .action((orgId: string, o, cmd) =>
      ctx.send(
        cmd,
        { method: 'GET', path: base(orgId, o.list), query: { ...pageQuery(o), state: o.state } },
        listView('e164', [
          col('NUMBER', 'e164'),
          col('STATE', 'state'),
          col('SOURCE', 'source'),
          col('LIST_DATE', 'list_date'),
          col('ADDED_AT', 'added_at'),
        ]),
      ),
    );

  entry('show', 'show one entry').action(sendEntry('GET'));

  entry('remove', 'remove one entry (audited with the reason)')
    .requiredOption('--reason <reason>', 'why the entry is removed')
    .action(sendEntry('DELETE', (o) => ({ reason: o.reason })));
};
