import { type Command, Option, type OptionValues } from 'commander';
import { fields, secretView, type View } from '../output.js';
import { orgCollection, queuedView } from './collection.js';
import { col, filter, listView, paged, pageQuery, rowsView } from './listing.js';
import { type CliContext, type CommandGroup, integer, list } from './shared.js';

const webhooks = orgCollection('webhooks', 'webhook_id');

const signingSecretView = secretView('secret', 'store it now; receivers verify signatures with it');

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

/** The endpoint's fields: create requires the URL and events, update takes any of them. */
function endpointOptions(cmd: Command, create: boolean): Command {
  const url = new Option('--endpoint-url <url>', 'https:// URL of the receiver');
  const events = new Option('--events <list>', 'comma-separated event types, or * for all');
  return cmd
    .addOption(create ? url.makeOptionMandatory() : url)
    .addOption((create ? events.makeOptionMandatory() : events).argParser(list))
    .option('--description <text>', 'a note for people');
}

const endpoint = (o: OptionValues) => ({
  url: o.endpointUrl,
  events: o.events,
  description: o.description,
});

/** `webhook …`: the endpoints, then what was delivered to them and sending it again. */
export const webhookCommands: CommandGroup = (program, ctx) => {
  const wh = program.command('webhook').description('outgoing webhooks of an organization');
  endpointCommands(wh, ctx);
  deliveryCommands(wh, ctx);
};

/** `webhook create|list|show|update|disable|enable|rotate|delete`. */
function endpointCommands(wh: Command, ctx: CliContext): void {
  endpointOptions(
    webhooks.create(
      wh,
      ctx,
      'register an endpoint; prints its signing secret once',
      signingSecretView,
      endpoint,
    ),
    true,
  );

  webhooks.list(wh, ctx, {
    description: "an organization's endpoints, oldest first",
    view: endpointsView,
  });

  webhooks.show(wh, ctx, 'one endpoint', webhookView);

  endpointOptions(
    webhooks.update(
      wh,
      ctx,
      "change an endpoint's URL, events or description",
      webhookView,
      endpoint,
    ),
    false,
  );

  webhooks.post(
    wh,
    ctx,
    'disable',
    'stop deliveries to an endpoint (events are no longer queued for it)',
    webhookView,
  );
  webhooks.post(wh, ctx, 'enable', 'resume deliveries; pending ones go out at once', webhookView);

  webhooks
    .post(
      wh,
      ctx,
      'rotate',
      'new signing secret; the old one keeps signing beside it for the grace period',
      signingSecretView,
      (o) => ({ grace_seconds: o.graceSeconds }),
    )
    .option(
      '--grace-seconds <n>',
      'how long the old secret keeps signing (default 86400)',
      integer,
    );

  webhooks
    .member(wh, 'delete', 'remove an endpoint with its delivery history')
    .action(webhooks.send(ctx, webhookView, (at) => ({ method: 'DELETE', path: at() })));
}

/** `webhook deliveries|attempts|replay` of one endpoint. */
function deliveryCommands(wh: Command, ctx: CliContext): void {
  paged(
    webhooks
      .member(wh, 'deliveries', "an endpoint's deliveries, newest first")
      .option('--state <state>', 'pending, delivered or failed'),
  ).action(
    webhooks.send(ctx, deliveriesView, (at, o) => ({
      method: 'GET',
      path: at('/deliveries'),
      query: { state: o.state, ...pageQuery(o) },
    })),
  );

  webhooks.list(wh, ctx, {
    name: 'attempts',
    of: '/attempts',
    description: "an endpoint's delivery attempts (status, latency, first bytes of the answer)",
    paged: false,
    filters: [
      filter('--event-id <id>', 'only the attempts of this event (msg_…)'),
      filter('--limit <n>', '1 to 500 (default 50)', integer),
    ],
    view: attemptsView,
  });

  webhooks
    .post(
      wh,
      ctx,
      'replay',
      'send one event again (--event-id), or every failed delivery since a time',
      queuedView,
      (o) => ({ event_id: o.eventId, since: o.since }),
    )
    .option('--event-id <id>', 'the event (msg_…)')
    .option('--since <iso>', 'every failed delivery created at or after this time');
}
