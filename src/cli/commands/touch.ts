import { seg } from '../client.js';
import { type Answer, fields, formatValue, table, type View } from '../output.js';
import { col, listView, paged, pageQuery, timeRange } from './listing.js';
import type { CommandGroup } from './shared.js';

const dispatch = (t: Answer) => (t.dispatch ?? null) as Answer | null;

/** The decision as fields, the dispatch state beside it, then each attempt as a table row. */
const touchView: View = {
  primary: (t) => t.status,
  human: (t) => {
    const d = dispatch(t);
    const head = fields(
      {
        ...t,
        dispatch_status: d?.status ?? null,
        dispatch_attempts: d?.attempts ?? null,
        dispatch_carrier_ids: d?.carrier_ids ?? null,
        dispatch_last_error: d?.last_error ?? null,
        dispatch_finalized_at: d?.finalized_at ?? null,
      },
      ['dispatch'],
    );
    const history = Array.isArray(d?.history) ? (d.history as Answer[]) : [];
    if (history.length === 0) return head;
    const cols = ['attempt', 'outcome', 'carrier', 'carrier_id', 'error', 'started_at'];
    const rows = history.map((a) => cols.map((k) => formatValue(a[k])));
    return `${head}\nattempts:\n${table(
      cols.map((c) => c.toUpperCase()),
      rows,
    )}`;
  },
};

export const touchCommands: CommandGroup = (program, ctx) => {
  const touch = program.command('touch').description('outbound touches: decisions and dispatch');

  timeRange(
    paged(
      touch.command('list').description('list touches with their dispatch state, newest first'),
    ),
    'touches decided',
  )
    .argument('<org_id>')
    .option('--campaign <code>', 'only this campaign')
    .option('--status <status>', 'only queued or blocked touches')
    .option('--dispatch-status <status>', 'only pending, delivered, failed or unknown')
    .option('--to <e164>', 'only touches to this number')
    .action((orgId: string, o, cmd) =>
      ctx.send(
        cmd,
        {
          method: 'GET',
          path: `/admin/orgs/${seg(orgId)}/touches`,
          query: {
            ...pageQuery(o),
            campaign: o.campaign,
            since: o.since,
            until: o.until,
            status: o.status,
            dispatch_status: o.dispatchStatus,
            to: o.to,
          },
        },
        listView('touch_id', [
          col('TOUCH_ID', 'touch_id'),
          col('DECIDED_AT', 'decided_at'),
          col('CAMPAIGN', 'campaign_code'),
          col('TO', 'to_e164'),
          col('CHANNEL', 'channel'),
          col('STATUS', 'status'),
          { header: 'DISPATCH', cell: (t) => dispatch(t)?.status },
          { header: 'ATTEMPTS', cell: (t) => dispatch(t)?.attempts },
          {
            header: 'REASONS',
            cell: (t) =>
              Array.isArray(t.reasons)
                ? (t.reasons as Answer[]).map((r) => r.code ?? formatValue(r))
                : t.reasons,
          },
        ]),
      ),
    );

  touch
    .command('show')
    .description('show a touch: its decision, checks and every dispatch attempt')
    .argument('<org_id>')
    .argument('<touch_id>')
    .action((orgId: string, touchId: string, _o, cmd) =>
      ctx.send(
        cmd,
        { method: 'GET', path: `/admin/orgs/${seg(orgId)}/touches/${seg(touchId)}` },
        touchView,
      ),
    );
};
