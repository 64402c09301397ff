import { seg } from '../client.js';
import { type Answer, fields, formatValue, table, type View } from '../output.js';
import { type CommandGroup, integer, jsonValue, list, requireChange } from './shared.js';

const base = (orgId: string) => `/admin/orgs/${seg(orgId)}/conversion-destinations`;
const one = (orgId: string, id: string, rest = '') => `${base(orgId)}/${seg(id)}${rest}`;
const rowsOf = (a: Answer, key: string) => (Array.isArray(a[key]) ? (a[key] as Answer[]) : []);

const destinationView: View = { primary: (d) => d.destination_id, human: (d) => fields(d) };

const listView: View = {
  primary: (a) =>
    rowsOf(a, 'destinations')
      .map((d) => d.destination_id)
      .join('\n'),
  human: (a) => {
    const rows = rowsOf(a, 'destinations');
    if (rows.length === 0) return '(no conversion destinations)';
    return table(
      ['DESTINATION_ID', 'PLATFORM', 'ENABLED', 'NAME', 'CAMPAIGNS'],
      rows.map((r) =>
        [r.destination_id, r.platform, r.enabled, r.name, r.campaigns ?? 'all'].map(formatValue),
      ),
    );
  },
};

/** Last success, what waits, what failed and why: what an operator asks first. */
const statusView: View = {
  primary: (d) => (d.uploads as Answer | undefined)?.pending,
  human: (d) => {
    const u = (d.uploads ?? {}) as Answer;
    const reasons = Object.entries((u.failed_by_reason ?? {}) as Record<string, number>);
    return [
      `${d.name} (${d.platform}, ${d.enabled ? 'enabled' : 'disabled'})`,
      `last success: ${formatValue(u.last_success_at)}`,
      `pending: ${u.pending}  sent: ${u.sent}  failed: ${u.failed}  retracted: ${u.retracted}  not retractable: ${u.not_retractable}`,
      ...(reasons.length ? ['failed by reason:', ...reasons.map(([r, n]) => `  ${r}: ${n}`)] : []),
    ].join('\n');
  },
};

const uploadsView: View = {
  primary: (a) =>
    rowsOf(a, 'items')
      .map((u) => u.upload_id)
      .join('\n'),
  human: (a) => {
    const rows = rowsOf(a, 'items');
    if (rows.length === 0) return '(no uploads)';
    return table(
      ['CREATED_AT', 'CALL_ID', 'KIND', 'STATUS', 'N', 'REASON'],
      rows.map((r) =>
        [r.created_at, r.call_id, r.kind, r.status, r.attempts, r.reason].map(formatValue),
      ),
    );
  },
};

const attemptsView: View = {
  primary: (a) =>
    rowsOf(a, 'attempts')
      .map((x) => x.attempt_id)
      .join('\n'),
  human: (a) => {
    const rows = rowsOf(a, 'attempts');
    if (rows.length === 0) return '(no attempts)';
    return table(
      ['FINISHED_AT', 'UPLOAD_ID', 'N', 'OUTCOME', 'STATUS', 'REASON'],
      rows.map((r) =>
        [r.finished_at, r.upload_id, r.attempt, r.outcome, r.status_code, r.reason].map(
          formatValue,
        ),
      ),
    );
  },
};

const queuedView: View = { primary: (a) => a.queued, human: (a) => `queued ${a.queued}` };
const deletedView: View = { primary: () => 'deleted', human: () => 'deleted' };
const testView: View = { primary: (a) => a.ok, human: (a) => fields(a) };

const value = (o: { value?: number; currency?: string }) =>
  o.value === undefined ? undefined : { amount: o.value, currency: o.currency ?? 'USD' };
const trigger = (o: { minSeconds?: number }) =>
  o.minSeconds === undefined ? undefined : { event: 'answered_call', min_seconds: o.minSeconds };

/** `destination …`: where conversions go; `upload …`: what was sent, and sending again. */
export const conversionCommands: CommandGroup = (program, ctx) => {
  const d = program
    .command('destination')
    .description('conversion destinations of an organization (Google Ads, Meta, Microsoft, GA4)');

  d.command('create')
    .description('add a destination; secrets are read from a JSON file and never shown again')
    .argument('<org_id>')
    .requiredOption('--platform <p>', 'google_ads, meta, microsoft_ads or ga4')
    .requiredOption('--name <text>', 'a name for people')
    .requiredOption('--settings <json>', 'settings as JSON, or @file', jsonValue)
    .requiredOption(
      '--secrets <@file>',
      'secrets as JSON in a file (@path), kept out of shell history',
      jsonValue,
    )
    .option('--campaigns <codes>', 'comma-separated campaign codes (default: all)', list)
    .option(
      '--min-seconds <n>',
      'trigger on an answered call this long instead of a buyer success',
      integer,
    )
    .option('--value <amount>', 'the conversion value', Number)
    .option('--currency <code>', 'ISO 4217 currency of --value (default USD)')
    .action((orgId: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'POST',
          path: base(orgId),
          body: {
            platform: o.platform,
            name: o.name,
            settings: o.settings,
            secrets: o.secrets,
            campaigns: o.campaigns,
            trigger: trigger(o),
            value: value(o),
          },
        },
        destinationView,
      ),
    );

  d.command('list')
    .description("an organization's destinations (secrets masked)")
    .argument('<org_id>')
    .action((orgId: string, _o, cmd) =>
      ctx.send(cmd, { method: 'GET', path: base(orgId) }, listView),
    );

  d.command('show')
    .description('one destination, with its upload counts')
    .argument('<org_id>')
    .argument('<destination_id>')
    .action((orgId: string, id: string, _o, cmd) =>
      ctx.send(cmd, { method: 'GET', path: one(orgId, id) }, destinationView),
    );

  d.command('update')
    .description('change a destination; secrets given replace the stored ones of those names')
    .argument('<org_id>')
    .argument('<destination_id>')
    .option('--name <text>', 'a name for people')
    .option('--settings <json>', 'settings to change, as JSON or @file', jsonValue)
    .option('--secrets <@file>', 'secrets to replace, as JSON in a file (@path)', jsonValue)
    .option('--campaigns <codes>', 'comma-separated campaign codes', list)
    .option('--enabled <bool>', 'true or false', (v) => v === 'true')
    .action((orgId: string, id: string, o, cmd) => {
      const body = {
        name: o.name,
        settings: o.settings,
        secrets: o.secrets,
        campaigns: o.campaigns,
        enabled: o.enabled,
      };
      requireChange(cmd, body);
      return ctx.send(cmd, { method: 'PATCH', path: one(orgId, id), body }, destinationView);
    });

  d.command('delete')
    .description('remove a destination with its upload history')
    .argument('<org_id>')
    .argument('<destination_id>')
    .action((orgId: string, id: string, _o, cmd) =>
      ctx.send(cmd, { method: 'DELETE', path: one(orgId, id) }, deletedView),
    );

  d.command('test')
    .description("send one sample conversion in the platform's validate-only mode")
    .argument('<org_id>')
    .argument('<destination_id>')
    .action((orgId: string, id: string, _o, cmd) =>
      ctx.send(cmd, { method: 'POST', path: one(orgId, id, '/test') }, testView),
    );

  const u = program.command('upload').description('conversion uploads of a destination');

  u.command('status')
    .description('last success, pending, failed by reason')
    .argument('<org_id>')
    .argument('<destination_id>')
    .action((orgId: string, id: string, _o, cmd) =>
      ctx.send(cmd, { method: 'GET', path: one(orgId, id) }, statusView),
    );

  u.command('list')
    .description('uploads, newest first')
    .argument('<org_id>')
    .argument('<destination_id>')
    .option('--status <s>', 'pending, sent, failed, retracted or not_retractable')
    .option('--limit <n>', '1 to 1000 (default 100)', integer)
    .action((orgId: string, id: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'GET',
          path: one(orgId, id, '/uploads'),
          query: { status: o.status, limit: o.limit },
        },
        uploadsView,
      ),
    );

  u.command('attempts')
    .description('upload attempts, newest first')
    .argument('<org_id>')
    .argument('<destination_id>')
    .option('--upload-id <id>', 'only this upload (cup_…)')
    .action((orgId: string, id: string, o, cmd) =>
      ctx.send(
        cmd,
        { method: 'GET', path: one(orgId, id, '/attempts'), query: { upload_id: o.uploadId } },
        attemptsView,
      ),
    );

  u.command('retry')
    .description('send failed uploads again now (one with --upload-id, else every retriable one)')
    .argument('<org_id>')
    .argument('<destination_id>')
    .option('--upload-id <id>', 'the upload (cup_…)')
    .action((orgId: string, id: string, o, cmd) =>
      ctx.send(
        cmd,
        { method: 'POST', path: one(orgId, id, '/retry'), body: { upload_id: o.uploadId } },
        queuedView,
      ),
    );

  u.command('replay')
    .description('send conversions again (the platform deduplicates on the same key)')
    .argument('<org_id>')
    .argument('<destination_id>')
    .option('--since <iso>', 'conversions written at or after this time')
    .option('--call-id <id>', 'the conversion of this call')
    .action((orgId: string, id: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'POST',
          path: one(orgId, id, '/replay'),
          body: { since: o.since, call_id: o.callId },
        },
        queuedView,
      ),
    );
};
