import { seg } from '../client.js';
import { type Answer, fields, type View } from '../output.js';
import { col, listView, paged, pageQuery, timeRange } from './listing.js';
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

export const callCommands: CommandGroup = (program, ctx) => {
  const call = program.command('call').description('inbound calls');

  timeRange(
    paged(call.command('list').description('list calls with their attribution, newest first')),
    'calls started',
  )
    .argument('<org_id>')
    .option('--campaign <code>', 'only this campaign')
    .option('--status <status>', 'only this carrier status (completed, busy, …)')
    .option('--attribution <kind>', 'only session, recent_holder, repeat_caller or campaign')
    .action((orgId: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'GET',
          path: `/admin/orgs/${seg(orgId)}/calls`,
          query: {
            ...pageQuery(o),
            campaign: o.campaign,
            since: o.since,
            until: o.until,
            status: o.status,
            attribution: o.attribution,
          },
        },
        listView('call_id', [
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
      ),
    );

  call
    .command('show')
    .description('show a call with its attribution')
    .argument('<org_id>')
    .argument('<call_id>')
    .action((orgId: string, callId: string, _o, cmd) =>
      ctx.send(
        cmd,
        { method: 'GET', path: `/admin/orgs/${seg(orgId)}/calls/${seg(callId)}` },
        shownCallView,
      ),
    );

  call
    .command('create')
    .description('record an inbound call to a tracking number, attributed like a carrier call')
    .argument('<org_id>')
    .requiredOption('--to <e164>', 'the tracking number that was called')
    .requiredOption('--from <caller>', 'caller id as the carrier gives it')
    .option('--started-at <iso>', 'when the call started, ISO 8601 with a zone (default: now)')
    .action((orgId: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'POST',
          path: `/admin/orgs/${seg(orgId)}/calls`,
          body: { to: o.to, from: o.from, started_at: o.startedAt },
        },
        callView,
      ),
    );
};
