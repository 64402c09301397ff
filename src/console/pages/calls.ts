import type { ConsoleCallRow } from '../../domain/admin/queries.js';
import { foldSource } from '../../domain/reports/sources.js';
import type { Offer } from '../../domain/routing/types.js';
import { AppError } from '../../errors.js';
import { decodeCursor, encodeCursor, ID_SHAPE } from '../../routes/admin/paging.js';
import type { OrgContext } from '../context.js';
import { html } from '../html.js';
import { type Column, csvLink, orgPath, table, timeColumn } from '../layout.js';
import type { ConsoleRouter, PageResult } from '../router.js';
import { localTime, timeCell } from '../time.js';
import { callUploadColumns } from './conversion-uploads.js';
import { OUTCOME_FILTERS, type OutcomeFilter } from './outcomes.js';

const PAGE = 50;

export const ATTRIBUTION_WORDS: Record<string, string> = {
  session: 'the visitor’s session held the number when the call came in',
  recent_holder: 'the number’s last holder, within 30 minutes after its session ended',
  repeat_caller: 'the caller’s latest attributed session in this campaign (a repeat caller)',
  campaign: 'campaign only: no session could be tied to the call',
};

const duration = (s: number | null) =>
  s === null ? '' : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;

type CallRow = ConsoleCallRow;

/** A call's outcome as reports count it (report_call_outcome, docs/reporting.md). */
export function outcomeOf(status: string | null, duration: number | null): OutcomeFilter {
  if (status === 'completed' && (duration ?? 0) > 0) return 'answered';
  if (status !== null && ['busy', 'no-answer', 'failed', 'canceled', 'completed'].includes(status))
    return 'missed';
  return 'pending';
}

const OUTCOME_WORDS: Record<OutcomeFilter, string> = {
  answered: 'answered',
  missed: 'missed',
  pending: 'no outcome yet',
};

function callColumns(ctx: OrgContext): Column<CallRow>[] {
  const link = (r: CallRow) =>
    html`<a href="${orgPath(ctx.org.id, `calls/${r.call.id}`)}">${timeCell(r.call.startedAt, ctx.zone)}</a>`;
  const started = timeColumn('Started', (r: CallRow) => r.call.startedAt, ctx.zone);
  return [
    { ...started, cell: link },
    { label: 'Campaign', value: (r) => r.campaignCode },
    { label: 'Caller', value: (r) => r.call.fromNumber },
    { label: 'Tracking number', value: (r) => r.call.trackingNumber, low: true },
    {
      label: 'Source',
      value: (r) => r.source,
      cell: (r) =>
        r.call.ambiguous
          ? html`${r.source} <a class="badge" href="${orgPath(ctx.org.id, `campaigns/${encodeURIComponent(r.campaignCode)}`)}#sizing" title="Several visitors held this number: the match is uncertain">shared number</a>`
          : r.source,
    },
    { label: 'UTM campaign', value: (r) => r.session?.utmCampaign ?? '', low: true },
    { label: 'Attribution', value: (r) => r.call.attribution, low: true },
    { label: 'Shared number', value: (r) => (r.call.ambiguous ? 'yes' : 'no'), low: true },
    {
      label: 'Outcome',
      value: (r) => OUTCOME_WORDS[outcomeOf(r.call.status, r.call.durationSeconds)],
      cell: (r) => {
        const o = outcomeOf(r.call.status, r.call.durationSeconds);
        return html`<span class="outcome ${o}">${OUTCOME_WORDS[o]}${
          r.call.status && o !== 'answered'
            ? html` <span class="hint">(${r.call.status})</span>`
            : ''
        }</span>`;
      },
    },
    { label: 'Carrier status', value: (r) => r.call.status ?? '', low: true },
    {
      label: 'Duration',
      value: (r) => r.call.durationSeconds,
      cell: (r) => duration(r.call.durationSeconds),
      numeric: true,
    },
    { label: 'Buyer outcome', value: (r) => r.call.disposition ?? '' },
    { label: 'Call id', value: (r) => r.call.id, low: true },
  ];
}

export function callPages(router: ConsoleRouter): void {
  const { config, console: reads } = router.deps.queries;

  router.orgPage('/calls', 'calls', async (ctx, q): Promise<PageResult> => {
    const code = q.campaign?.trim() || undefined;
    const campaign = code ? await config.findCampaign(ctx.org.id, code) : null;
    if (code && !campaign) throw new AppError('Not Found');
    const status = OUTCOME_FILTERS.find(([k]) => k === q.status)?.[0];
    const source = q.source?.trim().slice(0, 200) || undefined;
    // The Buyers page's drill-down: the calls a buyer answered.
    const buyerId = q.buyer?.trim().slice(0, 100) || undefined;
    const { db, buyers } = router.deps.repos;
    const buyer = buyerId ? await buyers.getBuyer(db, ctx.org.id, buyerId) : null;
    if (buyerId && !buyer) throw new AppError('Not Found');
    const csv = q.format === 'csv';
    const rows = await reads.searchCalls(ctx.org.id, {
      since: ctx.range.since,
      until: ctx.range.until,
      q: q.q?.slice(0, 200),
      campaignId: campaign?.id,
      outcome: status,
      source: source === undefined ? undefined : foldSource(source),
      buyerId: buyer?.id,
      // A download holds every call of the range, up to a bound a spreadsheet can take.
      limit: csv ? 50_000 : PAGE + 1,
      after: csv ? undefined : decodeCursor(q.cursor, ID_SHAPE),
    });
    const more = !csv && rows.length > PAGE;
    const shown = more ? rows.slice(0, PAGE) : rows;
    const columns = callColumns(ctx);
    const campaigns = await config.listCampaigns(ctx.org.id, { limit: 200 });
    const base = orgPath(ctx.org.id, 'calls');
    const keep = {
      from: ctx.range.from,
      to: ctx.range.to,
      q: q.q,
      campaign: code,
      status,
      source,
      buyer: buyer?.id,
    };
    const nextQuery = new URLSearchParams(
      Object.entries({ ...keep, cursor: more ? encodeCursor(shown.at(-1)!.call.id) : '' }).filter(
        (e): e is [string, string] => !!e[1],
      ),
    );
    const filtered = !!(q.q || code || status || source || buyer);
    return {
      title: 'Calls',
      tables: { calls: { columns, rows: shown } },
      body: html`<form method="get" action="${base}" class="filters" role="search">
  <input type="hidden" name="from" value="${ctx.range.from}">
  <input type="hidden" name="to" value="${ctx.range.to}">
  ${buyer ? html`<input type="hidden" name="buyer" value="${buyer.id}">` : ''}
  <label>Search <input type="search" name="q" value="${q.q ?? ''}" placeholder="caller number, call id, UTM or landing page"></label>
  <label>Campaign <select name="campaign"><option value="">All campaigns</option>${campaigns.map(
    ({ campaign: c }) =>
      html`<option value="${c.code}"${c.code === code ? html` selected` : ''}>${c.code} · ${c.name}</option>`,
  )}</select></label>
  <label>Outcome <select name="status"><option value="">Any outcome</option>${OUTCOME_FILTERS.map(
    ([k, label]) =>
      html`<option value="${k}"${k === status ? html` selected` : ''}>${label}</option>`,
  )}</select></label>
  <label>Source <input name="source" value="${source ?? ''}" size="12" placeholder="google, meta, direct…"></label>
  <button type="submit">Show calls</button>
</form>
${buyer ? html`<p data-buyer-filter>Calls answered by <strong>${buyer.name}</strong> · <a href="${base}?${new URLSearchParams({ from: ctx.range.from, to: ctx.range.to }).toString()}">all calls</a></p>` : ''}
${table({
  caption: 'Calls, latest start first',
  columns,
  rows: shown,
  stacked: true,
  csv: csvLink(keep, base, 'calls'),
  empty:
    campaigns.length === 0
      ? html`No calls yet. Create a campaign first (Campaigns and pools), put its tracking numbers on your site with the website kit, and calls will show here.`
      : filtered
        ? html`No call matches these filters from ${ctx.range.from} to ${ctx.range.to}. Try a wider date range or fewer filters.`
        : html`No calls in this range. Calls appear here when someone rings one of your tracking numbers.`,
})}
${more ? html`<p class="pager"><a href="${base}?${nextQuery.toString()}" rel="next">Earlier calls</a></p>` : ''}`,
    };
  });

  router.orgPage('/calls/:id', 'calls', async (ctx, _q, params) => {
    const row = await reads.findCall(ctx.org.id, params.id ?? '');
    if (!row) throw new AppError('Not Found');
    const { call, session } = row;
    const reports = await reads.callReports(ctx.org.id, call.id);
    const audit = await reads.callAudit(ctx.org.id, [call.id, ...reports.map((r) => r.id)]);
    // The offers of a routed call to buyers (docs/routing.md), with the buyers' names.
    const { db, routing, buyers } = router.deps.repos;
    const offers = await routing.offersOfCall(db, ctx.org.id, call.id);
    const names = new Map(
      (await Promise.all(offers.map((o) => buyers.getBuyer(db, ctx.org.id, o.buyerId)))).map(
        (b, i) => [offers[i]!.buyerId, b?.name ?? offers[i]!.buyerId],
      ),
    );
    const buyerName = (id: string | null) => (id === null ? null : (names.get(id) ?? id));
    const offerColumns: Column<Offer>[] = [
      { label: 'Order', value: (o) => o.seq },
      { label: 'Buyer', value: (o) => buyerName(o.buyerId) },
      {
        label: 'Offered',
        value: (o) => o.offeredAt.toISOString(),
        cell: (o) => timeCell(o.offeredAt, ctx.zone),
      },
      { label: 'Outcome', value: (o) => o.outcome ?? 'ringing' },
      { label: "Buyer's leg", value: (o) => duration(o.durationSeconds) },
    ];
    const uploads = await router.deps.queries.conversions.listCallUploads(ctx.org.id, call.id);
    const uploadColumns = callUploadColumns(ctx);
    const when = (d: Date | null) => localTime(d, ctx.zone);
    const reportColumns: Column<(typeof reports)[number]>[] = [
      timeColumn('Received', (r) => r.at, ctx.zone),
      { label: 'Report id', value: (r) => r.reportId },
      { label: 'Disposition', value: (r) => r.disposition },
      { label: 'Notes', value: (r) => r.notes ?? '' },
      {
        label: 'Correction',
        value: (r) => {
          const i = reports.indexOf(r);
          return i > 0 && reports[i - 1]!.disposition !== r.disposition
            ? 'changes the outcome'
            : '';
        },
      },
      { label: 'Event id', value: (r) => r.id, long: true },
    ];
    const auditColumns: Column<(typeof audit)[number]>[] = [
      timeColumn('When', (a) => a.at, ctx.zone),
      { label: 'Actor', value: (a) => a.actor },
      { label: 'Action', value: (a) => a.action },
      { label: 'Detail', value: (a) => JSON.stringify(a.detail), long: true },
    ];
    const dl = (pairs: [string, unknown][]) =>
      html`<dl class="facts">${pairs.map(
        ([k, v]) =>
          html`<dt>${k}</dt><dd>${v === null || v === undefined || v === '' ? '–' : String(v)}</dd>`,
      )}</dl>`;
    const landing = session?.landingUrl ?? null;
    return {
      title: `Call from ${call.fromNumber}`,
      range: false,
      tables: {
        reports: { columns: reportColumns, rows: reports },
        offers: { columns: offerColumns, rows: offers },
        uploads: { columns: uploadColumns, rows: uploads },
        audit: { columns: auditColumns, rows: audit },
      },
      body: html`<p><a href="${orgPath(ctx.org.id, 'calls')}">← All calls</a></p>
<div class="cards">
<section class="card"><h2>The call</h2>${dl([
        ['Started', when(call.startedAt)],
        ['Campaign', row.campaignCode],
        ['Caller', call.fromNumber],
        ['Tracking number', call.trackingNumber],
        ['Status', call.status],
        ['Duration', duration(call.durationSeconds)],
        ['Buyer outcome', call.disposition ?? 'no report yet'],
        [
          'Answered by buyer',
          buyerName(call.buyerId) ??
            (offers.some((o) => o.outcome === null)
              ? 'ringing'
              : offers.length > 0
                ? 'no: sent to the fallback'
                : 'no'),
        ],
        ['Billable', call.billable === null ? null : call.billable ? 'yes' : 'no'],
        ['Payout', call.payout === null ? null : `${call.payout} ${ctx.org.currency}`],
        ['Call id', call.id],
      ])}</section>
<section class="card"><h2>Attribution</h2>${dl([
        ['Rule', call.attribution],
        ['Meaning', ATTRIBUTION_WORDS[call.attribution] ?? call.attribution],
        ['Source', row.source],
        [
          'Shared number',
          call.ambiguous
            ? 'yes: several visitors held this number, so the match is uncertain'
            : 'no',
        ],
        ['Session', call.dniSessionId],
      ])}</section>
<section class="card"><h2>The visit</h2>${
        session
          ? dl([
              ['Landing page', landing],
              ['Arrived', when(session.createdAt)],
              ['Page views', session.hits],
              ['utm_source', session.utmSource],
              ['utm_medium', session.utmMedium],
              ['utm_campaign', session.utmCampaign],
              ['utm_term', session.utmTerm],
              ['utm_content', session.utmContent],
              ['gclid', session.gclid],
              ['fbclid', session.fbclid],
              ['fbc', session.fbc],
              ['msclkid', session.msclkid],
              ['Number given', `${session.trackingNumber} (${session.kind})`],
            ])
          : html`<p class="empty">No visit: the call came in without a session on its number.</p>`
      }</section>
</div>
${
  offers.length > 0
    ? table({
        caption: 'Offers to buyers',
        columns: offerColumns,
        rows: offers,
        csv: csvLink({}, orgPath(ctx.org.id, `calls/${call.id}`), 'offers'),
        stacked: true,
        empty: '',
      })
    : ''
}
${table({
  caption: 'Buyer reports',
  columns: reportColumns,
  rows: reports,
  csv: csvLink({}, orgPath(ctx.org.id, `calls/${call.id}`), 'reports'),
  stacked: true,
  empty: 'No buyer report yet. The buyer posts one to the buyer-report endpoint with this call id.',
})}
${table({
  caption: 'Conversion uploads',
  columns: uploadColumns,
  rows: uploads,
  csv: csvLink({}, orgPath(ctx.org.id, `calls/${call.id}`), 'uploads'),
  stacked: true,
  empty: 'Nothing uploaded for this call: no conversion destination took it.',
})}
${table({
  caption: 'Audit trail',
  columns: auditColumns,
  rows: audit,
  csv: csvLink({}, orgPath(ctx.org.id, `calls/${call.id}`), 'audit'),
  stacked: true,
  empty: 'Nothing recorded about this call yet.',
})}`,
    };
  });
}
