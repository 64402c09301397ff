import { type Answer, fields, type View } from '../output.js';
import { orgCollection } from './collection.js';
import { col, filter, listView } from './listing.js';
import type { CommandGroup } from './shared.js';

const callView: View = {
  primary: (c) => c.call_id,
  human: (c) => fields(c),
};

const attribution = (c: Answer) => (c.attribution ?? {}) as Answer;

/** A shown call: its fields, then its attribution's, prefixed attribution_, in the same column. */
const shownCallView: View = {
  primary: (c) => c.call_id,
  human: (c) => {
    const a = attribution(c);
    const flat = Object.fromEntries(Object.entries(a).map(([k, v]) => [`attribution_${k}`, v]));
    return fields({ ...c, ...flat }, ['attribution']);
  },
};

const calls = orgCollection('calls', 'call_id');

export const callCommands: CommandGroup = (program, ctx) => {
  const call = program.command('call').description('inbound calls');

  calls.list(call, ctx, {
    description: 'list calls with their attribution, latest start first',
    range: 'calls started',
    filters: [
      filter('--campaign <code>', 'only this campaign'),
      filter('--status <status>', 'only this carrier status (completed, busy, …)'),
      filter('--attribution <kind>', 'only session, recent_holder, repeat_caller or campaign'),
      filter(
        '--outcome <outcome>',
        'only answered, missed or pending calls (as reports count them)',
      ),
      filter('--source <source>', 'only this source as reports name it (google, meta, direct…)'),
    ],
    view: listView('call_id', [
      col('CALL_ID', 'call_id'),
      col('STARTED_AT', 'started_at'),
      col('CAMPAIGN', 'campaign_code'),
      col('TO', 'tracking_number'),
      col('FROM', 'from'),
      { header: 'ATTRIBUTION', cell: (c) => attribution(c).kind },
      { header: 'VISITOR', cell: (c) => attribution(c).visitor_id },
      col('STATUS', 'status'),
      col('DISPOSITION', 'disposition'),
    ]),
  });

  calls.show(call, ctx, 'show a call with its attribution', shownCallView);

  calls
    .create(
      call,
      ctx,
      'record an inbound call to a tracking number, attributed like a carrier call',
      callView,
      (o) => ({ to: o.to, from: o.from, started_at: o.startedAt }),
    )
    .requiredOption('--to <e164>', 'the tracking number that was called')
    .requiredOption('--from <caller>', 'caller id as the carrier gives it')
    .option('--started-at <iso>', 'when the call started, ISO 8601 with a zone (default: now)');
};
