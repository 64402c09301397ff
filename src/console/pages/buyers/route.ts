import { isOpen } from '../../../domain/routing/schedule.js';
import type { Buyer, Usage } from '../../../domain/routing/types.js';
import type { CapName } from '../../../domain/routing/vocabulary.js';
import type { OrgContext } from '../../context.js';
import { html } from '../../html.js';
import { orgPath } from '../../layout.js';
import type { ConsoleRouter, PageResult } from '../../router.js';
import { type Column, csvLink, numberColumn, table } from '../../table.js';
import { dayOf, startOfDay } from '../../time.js';

/** One buyer as the page shows it: its caps used now and today's calls, billable and revenue. */
interface BuyerLine {
  buyer: Buyer;
  usage: Usage | undefined;
  open: boolean;
  calls: number;
  billable: number;
  revenue: string;
}

const CAPS: readonly [CapName, string][] = [
  ['hourly', 'This hour'],
  ['daily', 'Today'],
  ['monthly', 'This month'],
  ['total', 'Total'],
  ['concurrency', 'Live'],
];

/** "3 / 10" (a cap), or "3" (no such cap: counted, not limited). */
const used = (b: BuyerLine, cap: CapName) => {
  const n = b.usage?.[cap] ?? 0;
  const limit = b.buyer.caps[cap];
  return limit === undefined || limit === null ? `${n}` : `${n} / ${limit}`;
};

/**
 * Buyers (contract §11, docs/routing.md): each buyer's caps as counted now, whether it takes
 * calls now (active and open by its schedule in its zone), and today's calls answered by it,
 * billable calls and revenue, read from the traffic report grouped by buyer (the same numbers
 * the reporting API answers) over the organization's day so far.
 */
export function buyerPages(router: ConsoleRouter): void {
  const { deps, reports } = router;
  router.orgPage('/buyers', 'buyers', async (ctx: OrgContext): Promise<PageResult> => {
    const db = deps.repos.db;
    const buyers = await deps.repos.buyers.listBuyers(db, ctx.org.id, 1000);
    const today = startOfDay(dayOf(ctx.now, ctx.zone), ctx.zone);
    const [usage, report] = await Promise.all([
      deps.repos.buyers.usageOf(
        db,
        ctx.org.id,
        buyers.map((b) => b.id),
        ctx.now,
      ),
      reports.trafficReport(ctx.org.id, {
        kind: 'traffic',
        from: today,
        to: ctx.now,
        timeZone: ctx.zone,
        bucket: 'none',
        groupBy: ['buyer'],
      }),
    ]);
    const byBuyer = new Map(report.rows.map((r) => [r.keys.buyer ?? '', r]));
    const lines: BuyerLine[] = buyers.map((b) => {
      const r = byBuyer.get(b.id);
      return {
        buyer: b,
        usage: usage.get(b.id),
        open: b.status === 'active' && isOpen(b.schedule, b.timeZone, ctx.now.getTime()),
        calls: r?.metrics.calls_answered_by_buyer ?? 0,
        billable: r?.metrics.calls_billable ?? 0,
        revenue: r?.money.revenue ?? '0.00',
      };
    });
    const currency = ctx.org.currency;
    const columns: Column<BuyerLine>[] = [
      { label: 'Buyer', value: (l) => l.buyer.name, text: true },
      { label: 'Status', value: (l) => l.buyer.status },
      { label: 'Takes calls now', value: (l) => (l.open ? 'open' : 'closed') },
      ...CAPS.map(([cap, label]) => ({ label, value: (l: BuyerLine) => used(l, cap) })),
      {
        ...numberColumn('Calls today', (l) => l.calls, ctx.num),
        cell: (l) =>
          html`<a href="${orgPath(ctx.org.id, 'calls')}?${new URLSearchParams({ from: dayOf(ctx.now, ctx.zone), to: dayOf(ctx.now, ctx.zone), buyer: l.buyer.id }).toString()}" aria-label="Calls ${l.buyer.name} answered today: ${ctx.num(l.calls)}">${ctx.num(l.calls)}</a>`,
      },
      numberColumn('Billable today', (l) => l.billable, ctx.num),
      {
        label: `Revenue today (${currency})`,
        value: (l) => l.revenue,
        cell: (l) => html`<span data-revenue="${l.buyer.id}">${l.revenue}</span>`,
        numeric: true,
      },
    ];
    const path = orgPath(ctx.org.id, 'buyers');
    return {
      title: 'Buyers',
      range: false,
      tables: { buyers: { columns, rows: lines } },
      body: html`<p class="hint">Caps count now, in each buyer’s own time zone; “Today” columns count the organization’s day so far (${ctx.zone}). Revenue leaves out calls whose latest buyer report is a rejection.</p>
${table({
  caption: 'Buyers',
  columns,
  rows: lines,
  csv: csvLink({}, path, 'buyers'),
  empty: html`No buyer yet. Add one with <code>tracking-admin buyer create</code> or <code>POST /admin/orgs/{org_id}/buyers</code>, then give a campaign a routing plan.`,
})}`,
    };
  });
}
