import type { Command, OptionValues } from 'commander';
import { seg } from '../client.js';
import { type Answer, fields, formatValue, type View } from '../output.js';
import { collection, orgCollection } from './collection.js';
import { col, rowsView } from './listing.js';
import { type CommandGroup, integer, jsonValue, list } from './shared.js';

const buyers = orgCollection('buyers', 'buyer_id');
/** A campaign's routing plan: one resource under the campaign, shown and replaced whole. */
const routing = collection(
  ['org_id', 'code'],
  (ids) => `/admin/orgs/${seg(ids[0]!)}/campaigns/${seg(ids[1]!)}/routing`,
  'unused',
);

const capText = (caps: Answer, usage: Answer) =>
  ['hourly', 'daily', 'monthly', 'total', 'concurrency']
    .filter((c) => caps[c] !== null && caps[c] !== undefined)
    .map((c) => `${c} ${usage[c]}/${caps[c]}`)
    .join(', ') || 'no caps';

const buyerView: View = { primary: (b) => b.buyer_id, human: (b) => fields(b) };

const listView = rowsView('items', 'buyer_id', '(no buyers)', [
  col('BUYER_ID', 'buyer_id'),
  col('STATUS', 'status'),
  col('FORWARD_TO', 'forward_to'),
  { header: 'PAYOUT', cell: (b) => (b.payout as Answer).amount },
  { header: 'CAPS USED', cell: (b) => capText(b.caps as Answer, b.usage as Answer) },
  col('NAME', 'name'),
]);

const routingView: View = {
  primary: (p) => p.campaign_code,
  human: (p) => {
    const targets = p.targets as Answer[];
    return [
      `campaign ${p.campaign_code}: ring ${p.ring_timeout_seconds}s each, then fallback ${p.fallback}`,
      ...(targets.length === 0
        ? ['(no targets: every call goes to the fallback)']
        : targets.map((t) => `  priority ${t.priority}  weight ${t.weight}  ${t.buyer_id}`)),
      `updated: ${formatValue(p.updated_at)}`,
    ].join('\n');
  },
};

/** `--caps hourly=10,daily=100`: the caps object (a cap named without a value: none). */
function caps(value: string): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const part of list(value)) {
    const [name, n] = part.split('=');
    out[name!.trim()] = n === undefined || n.trim() === '' ? null : integer(n.trim());
  }
  return out;
}

/** `--target <buyer_id>:<priority>[:<weight>]`, repeated. */
function target(value: string, prev: Answer[] = []): Answer[] {
  const [buyerId, priority, weight] = value.split(':');
  if (!buyerId || priority === undefined) {
    throw new Error(`--target takes <buyer_id>:<priority>[:<weight>], not ${value}`);
  }
  return [
    ...prev,
    {
      buyer_id: buyerId,
      priority: integer(priority),
      ...(weight === undefined ? {} : { weight: integer(weight) }),
    },
  ];
}

const payout = (o: OptionValues) =>
  o.payout === undefined
    ? undefined
    : {
        amount: o.payout,
        ...(o.minDuration === undefined ? {} : { min_duration_seconds: o.minDuration }),
        ...(o.duplicateDays === undefined ? {} : { duplicate_window_days: o.duplicateDays }),
      };

const buyerBody = (o: OptionValues) => ({
  name: o.name,
  forward_to: o.forwardTo,
  time_zone: o.timeZone,
  schedule: o.schedule,
  states: o.states,
  caps: o.caps,
  payout: payout(o),
  status: o.status,
});

const buyerOptions = (cmd: Command) =>
  cmd
    .option('--time-zone <zone>', "IANA zone of its schedule and caps (default: the org's)")
    .option(
      '--schedule <json>',
      'weekly open hours as JSON or @file, e.g. {"mon":[["09:00","17:00"]]} (absent days closed)',
      jsonValue,
    )
    .option('--states <codes>', 'comma-separated US state codes it takes callers from', list)
    .option('--caps <caps>', 'hourly=N,daily=N,monthly=N,total=N,concurrency=N', caps)
    .option('--payout <amount>', 'payout per billable call, two decimals, e.g. 25.00')
    .option('--min-duration <seconds>', 'least leg length for a billable call', integer)
    .option('--duplicate-days <days>', 'the same caller is billable once in this window', integer)
    .option('--status <status>', 'active or paused');

/** `buyer …`: who takes an organization's calls; `routing …`: which buyers a campaign's go to. */
export const buyerCommands: CommandGroup = (program, ctx) => {
  const b = program.command('buyer').description('buyers: who takes and pays for calls');

  buyerOptions(
    buyers
      .create(b, ctx, 'add a buyer', buyerView, buyerBody)
      .requiredOption('--name <text>', 'a name for people')
      .requiredOption('--forward-to <e164>', 'the number its calls ring'),
  );

  buyers.list(b, ctx, {
    description: "an organization's buyers, with what each cap counts now",
    view: listView,
  });

  buyers.show(b, ctx, 'one buyer, with what each cap counts now', buyerView);

  buyerOptions(
    buyers
      .update(
        b,
        ctx,
        'change a buyer; schedule, states, caps and payout given replace the old whole',
        buyerView,
        buyerBody,
      )
      .option('--name <text>', 'a name for people')
      .option('--forward-to <e164>', 'the number its calls ring'),
  );

  const r = program.command('routing').description("a campaign's routing plan");

  routing
    .command(r, 'set', "replace a campaign's routing plan")
    .option(
      '--target <buyer:priority[:weight]>',
      'a buyer to offer calls to (repeat; priority 1 first, weight 1-100)',
      target,
    )
    .option('--ring-timeout <seconds>', 'how long each buyer rings (5-60, default 20)', integer)
    .option('--fallback <where>', "forward_to (the campaign's number, default) or hangup")
    .action(
      routing.send(ctx, routingView, (at, o) => ({
        method: 'PUT',
        path: at(),
        body: {
          targets: o.target ?? [],
          ...(o.ringTimeout === undefined ? {} : { ring_timeout_seconds: o.ringTimeout }),
          ...(o.fallback === undefined ? {} : { fallback: o.fallback }),
        },
      })),
    );

  routing
    .command(r, 'show', "show a campaign's routing plan")
    .action(routing.send(ctx, routingView, (at) => ({ method: 'GET', path: at() })));
};
