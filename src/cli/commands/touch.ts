import { type Answer, fields, formatValue, table, type View } from '../output.js';
import { orgCollection } from './collection.js';
import { col, filter, listView } from './listing.js';
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

const touches = orgCollection('touches', 'touch_id');

export const touchCommands: CommandGroup = (program, ctx) => {
  const touch = program.command('touch').description('outbound touches: decisions and dispatch');

  touches.list(touch, ctx, {
    description: 'list touches with their dispatch state, newest first',
    range: 'touches decided',
    filters: [
      filter('--campaign <code>', 'only this campaign'),
      filter('--status <status>', 'only queued or blocked touches'),
      filter('--dispatch-status <status>', 'only pending, delivered, failed or unknown'),
      filter('--to <e164>', 'only touches to this number'),
    ],
    view: listView('touch_id', [
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
  });

  touches.show(
    touch,
    ctx,
    'show a touch: its decision, checks and every dispatch attempt',
    touchView,
  );
};
