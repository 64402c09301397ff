import { NATIONAL_LIST_MAX_AGE_DAYS } from '../../../domain/compliance/index.js';
import type { TouchRow } from '../../../domain/reports/types.js';
import type { TouchGroup } from '../../../domain/reports/vocabulary.js';
import { type ConsoleDeps, type OrgContext, reportRange } from '../../context.js';
import { html } from '../../html.js';
import { orgPath } from '../../layout.js';
import type { ConsoleRouter, PageResult } from '../../router.js';
import { type Column, codeWord, csvLink, numberColumn, table, timeColumn } from '../../table.js';
import { dayCell } from '../../time.js';

const DAY = 86_400_000;
/** Opt-outs listed on the page (the count above the table is of all of them). */
const OPT_OUTS_SHOWN = 500;

function touchColumns(ctx: OrgContext, key: TouchGroup, label: string): Column<TouchRow>[] {
  const n = (m: 'touches' | 'placed' | 'blocked') =>
    numberColumn(m[0]!.toUpperCase() + m.slice(1), (r: TouchRow) => r.metrics[m], ctx.num);
  return [
    // consent_insufficient wraps after its underscore, so four columns fit a phone's width.
    {
      label,
      value: (r) => r.keys[key] ?? '(none)',
      cell: (r) => codeWord(r.keys[key] ?? '(none)'),
    },
    n('touches'),
    n('placed'),
    n('blocked'),
  ];
}

type OptOut = Awaited<ReturnType<ConsoleDeps['queries']['activity']['listConsentEvents']>>[number];
type List = Awaited<ReturnType<ConsoleDeps['queries']['console']['suppressionSummary']>>[number];

/** The opt-outs received, with the contact's own words where a carrier kept them. */
function optOutColumnsOf(ctx: OrgContext): Column<OptOut>[] {
  return [
    timeColumn('Received', (e) => e.recordedAt, ctx.zone),
    { label: 'Number', value: (e) => e.e164 },
    { label: 'How', value: (e) => e.source ?? '' },
    // A carrier opt-out keeps the contact's own words as evidence; an admin one its reason.
    {
      label: 'What they said',
      value: (e) => {
        const body = (e.evidence as { body?: unknown } | null)?.body;
        return typeof body === 'string' ? body : (e.reason ?? '');
      },
    },
  ];
}

/** The suppression lists, and whether a national registry's copy is fresh enough to use. */
function listColumnsOf(ctx: OrgContext): Column<List>[] {
  const today = ctx.now.getTime();
  // A national registry binds the numbers of its country: Canada's the Canadian ones.
  const bound = (l: List) => (l.list === 'national_ca' ? ' to Canadian numbers' : '');
  const freshness = (l: List) => {
    if (l.list !== 'national' && l.list !== 'national_ca')
      return l.imported_at ? 'kept current by imports and changes' : 'no import yet';
    if (!l.listed_on)
      return `never imported: marketing touches${bound(l)} below pewc are blocked (dnc_list_stale)`;
    const age = Math.floor((today - Date.parse(`${l.listed_on}T00:00:00Z`)) / DAY);
    return age > NATIONAL_LIST_MAX_AGE_DAYS
      ? `stale: ${age} days old (limit ${NATIONAL_LIST_MAX_AGE_DAYS}); marketing touches${bound(l)} below pewc are blocked`
      : `fresh: ${age} days old (limit ${NATIONAL_LIST_MAX_AGE_DAYS})`;
  };
  return [
    { label: 'List', value: (l) => l.list },
    numberColumn('Entries', (l) => l.entries, ctx.num),
    { label: 'List date', value: (l) => l.listed_on ?? '', cell: (l) => dayCell(l.listed_on) },
    timeColumn('Last import', (l) => (l.imported_at ? new Date(l.imported_at) : null), ctx.zone),
    { label: 'Freshness', value: freshness },
  ];
}

export function compliancePages(router: ConsoleRouter): void {
  const { deps, reports } = router;
  const { activity, console: reads } = deps.queries;

  router.orgPage('/compliance', 'compliance', async (ctx): Promise<PageResult> => {
    const q = { kind: 'touches' as const, ...reportRange(ctx), bucket: 'none' as const };
    const inRange = { since: ctx.range.since, until: ctx.range.until };
    const optOutFilter = { kind: 'opt_out', ...inRange };
    const [
      byReason,
      byChannel,
      byState,
      optOuts,
      optOutCount,
      pendingCount,
      clarifiedCount,
      lists,
    ] = await Promise.all([
      reports.touchReport(ctx.org.id, { ...q, groupBy: ['reason'] }),
      reports.touchReport(ctx.org.id, { ...q, groupBy: ['channel'] }),
      reports.touchReport(ctx.org.id, { ...q, groupBy: ['state'] }),
      activity.listConsentEvents(ctx.org.id, { limit: OPT_OUTS_SHOWN, ...optOutFilter }),
      activity.countConsentEvents(ctx.org.id, optOutFilter),
      // A doubtful reply that was asked about: an opt-out until the person answers.
      activity.countConsentEvents(ctx.org.id, { kind: 'opt_out_pending', ...inRange }),
      // The answer to that question: the person wants messages.
      activity.countConsentEvents(ctx.org.id, { kind: 'clarified', ...inRange }),
      reads.suppressionSummary(ctx.org.id),
    ]);
    const t = byChannel.totals.metrics;
    const sorted = (rows: TouchRow[]) => rows.sort((a, b) => b.metrics.touches - a.metrics.touches);
    const optOutColumns = optOutColumnsOf(ctx);
    const listColumns = listColumnsOf(ctx);
    const path = orgPath(ctx.org.id, 'compliance');
    const keep = { from: ctx.range.from, to: ctx.range.to };
    const reasons = sorted(byReason.rows);
    const channels = sorted(byChannel.rows);
    const states = sorted(byState.rows);
    const emptyTouches =
      'No outbound touch in this range. Touches are decided by POST /tracking/campaigns/{code}/outbound; blocked ones show here with their reason.';
    return {
      title: 'Compliance',
      tables: {
        reasons: { columns: touchColumns(ctx, 'reason', 'Reason'), rows: reasons },
        channels: { columns: touchColumns(ctx, 'channel', 'Channel'), rows: channels },
        states: { columns: touchColumns(ctx, 'state', 'State'), rows: states },
        opt_outs: { columns: optOutColumns, rows: optOuts },
        lists: { columns: listColumns, rows: lists },
      },
      body: html`<section class="kpis" aria-label="Touches in the range">
<div class="kpi"><div class="label">Touches decided</div><div class="value" data-metric="touches">${ctx.num(t.touches)}</div></div>
<div class="kpi"><div class="label">Placed</div><div class="value" data-metric="placed">${ctx.num(t.placed)}</div></div>
<div class="kpi"><div class="label">Blocked</div><div class="value" data-metric="blocked">${ctx.num(t.blocked)}</div></div>
<div class="kpi"><div class="label">Opt-outs received</div><div class="value" data-metric="opt_outs">${ctx.num(optOutCount)}</div></div>
<div class="kpi"><div class="label">Unclear replies asked about (opt-outs until answered)</div><div class="value" data-metric="opt_outs_pending">${ctx.num(pendingCount)}</div></div>
<div class="kpi"><div class="label">Answered: wants messages</div><div class="value" data-metric="clarified">${ctx.num(clarifiedCount)}</div></div>
</section>
${table({ caption: 'Touches by reason', columns: touchColumns(ctx, 'reason', 'Reason'), rows: reasons, csv: csvLink(keep, path, 'reasons'), empty: emptyTouches })}
<div class="cards">
${table({ caption: 'By channel', columns: touchColumns(ctx, 'channel', 'Channel'), rows: channels, csv: csvLink(keep, path, 'channels'), empty: emptyTouches })}
${table({ caption: 'By state', columns: touchColumns(ctx, 'state', 'State'), rows: states, csv: csvLink(keep, path, 'states'), empty: emptyTouches })}
</div>
${table({ caption: optOutCount > optOuts.length ? `Opt-outs received (the latest ${ctx.num(optOuts.length)} of ${ctx.num(optOutCount)})` : 'Opt-outs received', columns: optOutColumns, rows: optOuts, csv: csvLink(keep, path, 'opt_outs'), stacked: true, empty: 'No opt-out in this range. STOP replies and keypress opt-outs show here.' })}
${table({ caption: 'Suppression lists', columns: listColumns, rows: lists, csv: csvLink(keep, path, 'lists'), stacked: true, empty: '' })}`,
    };
  });
}
