import { fields, type View } from '../output.js';
import { col, listView, paged, pageQuery, rowsView } from './listing.js';
import { orgCollection, queuedView } from './org-resource.js';
import { type CommandGroup, integer, list, requireChange } from './shared.js';

const webhooks = orgCollection('webhooks', 'webhook_id');

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

const attemptsView = rowsView('attempts', 'attempt_id', '(no attempts)', [
  col('STARTED_AT', 'started_at'),
  col('EVENT_ID', 'event_id'),
  col('N', 'attempt'),
  col('OUTCOME', 'outcome'),
  col('STATUS', 'status_code'),
  col('MS', 'latency_ms'),
  { header: 'ANSWER/ERROR', cell: (r) => r.error ?? String(r.response_head ?? '').slice(0, 60) },
]);

export const webhookCommands: CommandGroup = (program, ctx) => {
  const wh = program.command('webhook').description('outgoing webhooks of an organization');
  const member = (name: string, description: string) => webhooks.member(wh, name, description);

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
          path: webhooks.base(orgId),
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
    ctx.send(
      cmd,
      { method: 'GET', path: webhooks.base(orgId), query: pageQuery(o) },
      endpointsView,
    ),
  );

  member('show', 'one endpoint').action(
    webhooks.send(ctx, webhookView, (at) => ({ method: 'GET', path: at() })),
  );

  member('update', "change an endpoint's URL, events or description")
    .option('--endpoint-url <url>', 'https:// URL of the receiver')
    .option('--events <list>', 'comma-separated event types, or * for all', list)
    .option('--description <text>', 'a note for people')
    .action((orgId: string, id: string, o, cmd) => {
      const body = { url: o.endpointUrl, events: o.events, description: o.description };
      requireChange(cmd, body);
      return ctx.send(cmd, { method: 'PATCH', path: webhooks.one(orgId, id), body }, webhookView);
    });

  for (const action of ['disable', 'enable'] as const) {
    member(
      action,
      action === 'disable'
        ? 'stop deliveries to an endpoint (events are no longer queued for it)'
        : 'resume deliveries; pending ones go out at once',
    ).action(webhooks.send(ctx, webhookView, (at) => ({ method: 'POST', path: at(`/${action}`) })));
  }

  member('rotate', 'new signing secret; the old one keeps signing beside it for the grace period')
    .option('--grace-seconds <n>', 'how long the old secret keeps signing (default 86400)', integer)
    .action(
      webhooks.send(ctx, secretView, (at, o) => ({
        method: 'POST',
        path: at('/rotate'),
        body: o.graceSeconds === undefined ? {} : { grace_seconds: o.graceSeconds },
      })),
    );

  member('delete', 'remove an endpoint with its delivery history').action(
    webhooks.send(ctx, webhookView, (at) => ({ method: 'DELETE', path: at() })),
  );

  paged(
    member('deliveries', "an endpoint's deliveries, newest first").option(
      '--state <state>',
      'pending, delivered or failed',
    ),
  ).action(
    webhooks.send(ctx, deliveriesView, (at, o) => ({
      method: 'GET',
      path: at('/deliveries'),
      query: { state: o.state, ...pageQuery(o) },
    })),
  );

  member('attempts', "an endpoint's delivery attempts (status, latency, first bytes of the answer)")
    .option('--event-id <id>', 'only the attempts of this event (msg_…)')
    .option('--limit <n>', '1 to 500 (default 50)', integer)
    .action(
      webhooks.send(ctx, attemptsView, (at, o) => ({
        method: 'GET',
        path: at('/attempts'),
        query: { event_id: o.eventId, limit: o.limit },
      })),
    );

  member('replay', 'send one event again (--event-id), or every failed delivery since a time')
    .option('--event-id <id>', 'the event (msg_…)')
    .option('--since <iso>', 'every failed delivery created at or after this time')
    .action(
      webhooks.send(ctx, queuedView, (at, o) => ({
        method: 'POST',
        path: at('/replay'),
        body: { event_id: o.eventId, since: o.since },
      })),
    );
};
