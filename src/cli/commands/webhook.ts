import { seg } from '../client.js';
import { type Answer, fields, formatValue, table, type View } from '../output.js';
import { col, listView, paged, pageQuery } from './listing.js';
import { type CommandGroup, integer, list, requireChange } from './shared.js';

const base = (orgId: string) => `/admin/orgs/${seg(orgId)}/webhooks`;
const one = (orgId: string, id: string, rest = '') => `${base(orgId)}/${seg(id)}${rest}`;

/** The secret cannot be fetched again, so it stands apart like an API key. */
const secretView: View = {
  primary: (w) => w.secret,
  human: (w) =>
    [
      fields(w, ['secret']),
      '',
      'secret (shown once, store it now; receivers verify signatures with it):',
      '',
      `    ${w.secret}`,
      '',
    ].join('\n'),
};

const webhookView: View = { primary: (w) => w.webhook_id, human: (w) => fields(w) };

const rowsOf = (a: Answer, key: string) => (Array.isArray(a[key]) ? (a[key] as Answer[]) : []);
const cells = (r: Answer, keys: string[]) => keys.map((k) => formatValue(r[k]));

const endpointsView = listView('webhook_id', [
  col('WEBHOOK_ID', 'webhook_id'),
  col('ENABLED', 'enabled'),
  col('EVENTS', 'events'),
  col('URL', 'url'),
  col('FAILURES', 'consecutive_failures'),
]);

const deliveriesView = listView('event_id', [
  col('CREATED_AT', 'created_at'),
  col('EVENT_ID', 'event_id'),
  col('TYPE', 'event_type'),
  col('STATE', 'state'),
  col('ATTEMPTS', 'attempts'),
  col('LAST_STATUS', 'last_status'),
  { header: 'NEXT/ERROR', cell: (r) => (r.state === 'pending' ? r.next_attempt_at : r.last_error) },
]);

const attemptsView: View = {
  primary: (a) =>
    rowsOf(a, 'attempts')
      .map((x) => x.attempt_id)
      .join('\n'),
  human: (a) => {
    const rows = rowsOf(a, 'attempts');
    if (rows.length === 0) return '(no attempts)';
    const keys = ['started_at', 'event_id', 'attempt', 'outcome', 'status_code', 'latency_ms'];
    return table(
      ['STARTED_AT', 'EVENT_ID', 'N', 'OUTCOME', 'STATUS', 'MS', 'ANSWER/ERROR'],
      rows.map((r) => [
        ...cells(r, keys),
        formatValue(r.error ?? String(r.response_head ?? '').slice(0, 60)),
      ]),
    );
  },
};

const replayView: View = { primary: (a) => a.queued, human: (a) => `queued ${a.queued}` };

export const webhookCommands: CommandGroup = (program, ctx) => {
  const wh = program.command('webhook').description('outgoing webhooks of an organization');

  wh.command('create')
    .description('register an endpoint; prints its signing secret once')
    .argument('<org_id>')
    .requiredOption('--endpoint-url <url>', 'https:// URL of the receiver')
    .requiredOption('--events <list>', 'comma-separated event types, or * for all', list)
    .option('--description <text>', 'a note for people')
    .action((orgId: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'POST',
          path: base(orgId),
          body: { url: o.endpointUrl, events: o.events, description: o.description },
        },
        secretView,
      ),
    );

  paged(
    wh
      .command('list')
      .description("an organization's endpoints, oldest first")
      .argument('<org_id>'),
  ).action((orgId: string, o, cmd) =>
    ctx.send(cmd, { method: 'GET', path: base(orgId), query: pageQuery(o) }, endpointsView),
  );

  wh.command('show')
    .description('one endpoint')
    .argument('<org_id>')
    .argument('<webhook_id>')
    .action((orgId: string, id: string, _o, cmd) =>
      ctx.send(cmd, { method: 'GET', path: one(orgId, id) }, webhookView),
    );

  wh.command('update')
    .description("change an endpoint's URL, events or description")
    .argument('<org_id>')
    .argument('<webhook_id>')
    .option('--endpoint-url <url>', 'https:// URL of the receiver')
    .option('--events <list>', 'comma-separated event types, or * for all', list)
    .option('--description <text>', 'a note for people')
    .action((orgId: string, id: string, o, cmd) => {
      const body = { url: o.endpointUrl, events: o.events, description: o.description };
      requireChange(cmd, body);
      return ctx.send(cmd, { method: 'PATCH', path: one(orgId, id), body }, webhookView);
    });

  for (const action of ['disable', 'enable'] as const) {
    wh.command(action)
      .description(
        action === 'disable'
          ? 'stop deliveries to an endpoint (events are no longer queued for it)'
          : 'resume deliveries; pending ones go out at once',
      )
      .argument('<org_id>')
      .argument('<webhook_id>')
      .action((orgId: string, id: string, _o, cmd) =>
        ctx.send(cmd, { method: 'POST', path: one(orgId, id, `/${action}`) }, webhookView),
      );
  }

  wh.command('rotate')
    .description('new signing secret; the old one keeps signing beside it for the grace period')
    .argument('<org_id>')
    .argument('<webhook_id>')
    .option('--grace-seconds <n>', 'how long the old secret keeps signing (default 86400)', integer)
    .action((orgId: string, id: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'POST',
          path: one(orgId, id, '/rotate'),
          body: o.graceSeconds === undefined ? {} : { grace_seconds: o.graceSeconds },
        },
        secretView,
      ),
    );

  wh.command('delete')
    .description('remove an endpoint with its delivery history')
    .argument('<org_id>')
    .argument('<webhook_id>')
    .action((orgId: string, id: string, _o, cmd) =>
      ctx.send(cmd, { method: 'DELETE', path: one(orgId, id) }, webhookView),
    );

  wh.command('deliveries')
    .description("an endpoint's deliveries, newest first")
    .argument('<org_id>')
    .argument('<webhook_id>')
    .option('--state <state>', 'pending, delivered or failed')
    .option('--limit <n>', '1 to 500 (default 50)', integer)
    .option('--cursor <cursor>', 'the page after the one that printed it')
    .action((orgId: string, id: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'GET',
          path: one(orgId, id, '/deliveries'),
          query: { state: o.state, ...pageQuery(o) },
        },
        deliveriesView,
      ),
    );

  wh.command('attempts')
    .description("an endpoint's delivery attempts (status, latency, first bytes of the answer)")
    .argument('<org_id>')
    .argument('<webhook_id>')
    .option('--event-id <id>', 'only the attempts of this event (msg_…)')
    .option('--limit <n>', '1 to 500 (default 50)', integer)
    .action((orgId: string, id: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'GET',
          path: one(orgId, id, '/attempts'),
          query: { event_id: o.eventId, limit: o.limit },
        },
        attemptsView,
      ),
    );

  wh.command('replay')
    .description('send one event again (--event-id), or every failed delivery since a time')
    .argument('<org_id>')
    .argument('<webhook_id>')
    .option('--event-id <id>', 'the event (msg_…)')
    .option('--since <iso>', 'every failed delivery created at or after this time')
    .action((orgId: string, id: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'POST',
          path: one(orgId, id, '/replay'),
          body: { event_id: o.eventId, since: o.since },
        },
        replayView,
      ),
    );
};
