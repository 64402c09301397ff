import { type Answer, EXIT, fields, formatValue, type View } from '../output.js';
import { orgCollection, queuedView } from './collection.js';
import { col, filter, rowsView } from './listing.js';
import { type CommandGroup, integer, jsonValue, list } from './shared.js';

const destinations = orgCollection('conversion-destinations', 'destination_id');

const destinationView: View = { primary: (d) => d.destination_id, human: (d) => fields(d) };

const apiOf = (r: Answer) =>
  (r.api ?? null) as { name: string; version: string; warning: string | null } | null;

const table = rowsView('destinations', 'destination_id', '(no conversion destinations)', [
  col('DESTINATION_ID', 'destination_id'),
  col('PLATFORM', 'platform'),
  { header: 'API', cell: (r) => (apiOf(r) ? `${apiOf(r)!.name} ${apiOf(r)!.version}` : '-') },
  col('ENABLED', 'enabled'),
  col('NAME', 'name'),
  { header: 'CAMPAIGNS', cell: (r) => r.campaigns ?? 'all' },
]);

/** The table, then a warning for each destination whose API version retires soon or has. */
const listView: View = {
  primary: table.primary,
  human: (a) => {
    const warnings = ((a.destinations ?? []) as Answer[]).flatMap((d) =>
      apiOf(d)?.warning ? [`warning: ${d.destination_id}: ${apiOf(d)!.warning}`] : [],
    );
    return [table.human(a), ...warnings].join('\n');
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

const uploadsView = rowsView('items', 'upload_id', '(no uploads)', [
  col('CREATED_AT', 'created_at'),
  col('CALL_ID', 'call_id'),
  col('KIND', 'kind'),
  col('STATUS', 'status'),
  col('N', 'attempts'),
  col('REASON', 'reason'),
]);

const attemptsView = rowsView('attempts', 'attempt_id', '(no attempts)', [
  col('FINISHED_AT', 'finished_at'),
  col('UPLOAD_ID', 'upload_id'),
  col('N', 'attempt'),
  col('OUTCOME', 'outcome'),
  col('STATUS', 'status_code'),
  col('REASON', 'reason'),
]);

const deletedView: View = { primary: () => 'deleted', human: () => 'deleted' };
/** Non-zero unless the platform accepted the sample: a script can gate on `destination test`. */
const testView: View = {
  primary: (a) => a.ok,
  human: (a) => fields(a),
  exit: (a) => (a.ok === true ? EXIT.ok : EXIT.checkFailed),
};

/** Replay: how many were queued, then each call that was not, with the reason. */
const replayView: View = {
  primary: (a) => a.queued,
  human: (a) => {
    const skipped = (a.skipped ?? []) as { call_id: string; reason_code: string; reason: string }[];
    return [
      `queued ${a.queued}`,
      ...(skipped.length ? [`skipped ${skipped.length}:`] : []),
      ...skipped.map((s) => `  ${s.call_id}  ${s.reason_code}: ${s.reason}`),
    ].join('\n');
  },
};

const value = (o: { value?: number; currency?: string }) =>
  o.value === undefined ? undefined : { amount: o.value, currency: o.currency ?? 'USD' };
const trigger = (o: { minSeconds?: number }) =>
  o.minSeconds === undefined ? undefined : { event: 'answered_call', min_seconds: o.minSeconds };

/** `destination …`: where conversions go; `upload …`: what was sent, and sending again. */
export const conversionCommands: CommandGroup = (program, ctx) => {
  destinationCommands(program, ctx);
  uploadCommands(program, ctx);
};

/** `destination add|list|show|update|delete|test`. */
const destinationCommands: CommandGroup = (program, ctx) => {
  const d = program
    .command('destination')
    .description('conversion destinations of an organization (Google Ads, Meta, Microsoft, GA4)');

  destinations
    .create(
      d,
      ctx,
      'add a destination; secrets are read from a JSON file and never shown again',
      destinationView,
      (o) => ({
        platform: o.platform,
        name: o.name,
        settings: o.settings,
        secrets: o.secrets,
        campaigns: o.campaigns,
        trigger: trigger(o),
        value: value(o),
      }),
    )
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
    .option('--currency <code>', 'ISO 4217 currency of --value (default USD)');

  destinations.list(d, ctx, {
    description: "an organization's destinations (secrets masked)",
    view: listView,
    paged: false,
  });

  destinations.show(d, ctx, 'one destination, with its upload counts', destinationView);

  destinations
    .update(
      d,
      ctx,
      'change a destination; secrets given replace the stored ones of those names',
      destinationView,
      (o) => ({
        name: o.name,
        settings: o.settings,
        secrets: o.secrets,
        campaigns: o.campaigns,
        enabled: o.enabled,
      }),
    )
    .option('--name <text>', 'a name for people')
    .option('--settings <json>', 'settings to change, as JSON or @file', jsonValue)
    .option('--secrets <@file>', 'secrets to replace, as JSON in a file (@path)', jsonValue)
    .option('--campaigns <codes>', 'comma-separated campaign codes', list)
    .option('--enabled <bool>', 'true or false', (v) => v === 'true');

  destinations
    .member(d, 'delete', 'remove a destination with its upload history')
    .action(destinations.send(ctx, deletedView, (at) => ({ method: 'DELETE', path: at() })));

  destinations.post(
    d,
    ctx,
    'test',
    "send one sample conversion in the platform's validate-only mode",
    testView,
  );
};

/** `upload status|list|attempts|retry|replay`, each of one destination. */
const uploadCommands: CommandGroup = (program, ctx) => {
  const u = program.command('upload').description('conversion uploads of a destination');

  destinations
    .member(u, 'status', 'last success, pending, failed by reason')
    .action(destinations.send(ctx, statusView, (at) => ({ method: 'GET', path: at() })));

  destinations.list(u, ctx, {
    of: '/uploads',
    description: 'uploads, newest first',
    paged: false,
    filters: [
      filter('--status <s>', 'pending, sent, failed, retracted or not_retractable'),
      filter('--limit <n>', '1 to 1000 (default 100)', integer),
    ],
    view: uploadsView,
  });

  destinations.list(u, ctx, {
    name: 'attempts',
    of: '/attempts',
    description: 'upload attempts, newest first',
    paged: false,
    filters: [filter('--upload-id <id>', 'only this upload (cup_…)')],
    view: attemptsView,
  });

  destinations
    .post(
      u,
      ctx,
      'retry',
      'send failed uploads again now (one with --upload-id, else every retriable one)',
      queuedView,
      (o) => ({ upload_id: o.uploadId }),
    )
    .option('--upload-id <id>', 'the upload (cup_…)');

  destinations
    .post(
      u,
      ctx,
      'replay',
      'send conversions again (the platform deduplicates on the same key), and queue earlier calls a new destination never had; names each call skipped and why',
      replayView,
      (o) => ({ since: o.since, call_id: o.callId }),
    )
    .option('--since <iso>', 'conversions written at or after this time')
    .option('--call-id <id>', 'the conversion of this call');
};
