import type { Offer } from '../../../domain/routing/types.js';
import { AppError } from '../../../errors.js';
import type { OrgContext } from '../../context.js';
import { type Html, html } from '../../html.js';
import { orgPath } from '../../layout.js';
import type { ConsoleRouter, PageHandler } from '../../router.js';
import { type Column, csvLink, table, timeColumn } from '../../table.js';
import { localTime, timeCell } from '../../time.js';
import { callUploadColumns } from '../shared/conversion-uploads.js';
import { ATTRIBUTION_WORDS, duration } from './columns.js';

/** A call, its visit, buyer reports, offers to buyers, conversion uploads and audit lines. */
async function readCall(router: ConsoleRouter, ctx: OrgContext, callId: string) {
  const row = await router.deps.queries.console.findCall(ctx.org.id, callId);
  if (!row) throw new AppError('Not Found');
  const { call, session } = row;
  const reports = await router.deps.queries.console.callReports(ctx.org.id, call.id);
  const audit = await router.deps.queries.console.callAudit(ctx.org.id, [
    call.id,
    ...reports.map((r) => r.id),
  ]);
  // The offers of a routed call to buyers (docs/routing.md), with the buyers' names.
  const { db, routing, buyers } = router.deps.repos;
  const offers = await routing.offersOfCall(db, ctx.org.id, call.id);
  const names = new Map(
    (await Promise.all(offers.map((o) => buyers.getBuyer(db, ctx.org.id, o.buyerId)))).map(
      (b, i) => [offers[i]!.buyerId, b?.name ?? offers[i]!.buyerId],
    ),
  );
  const buyerName = (id: string | null) => (id === null ? null : (names.get(id) ?? id));
  const uploads = await router.deps.queries.conversions.listCallUploads(ctx.org.id, call.id);
  return { row, call, session, reports, audit, offers, buyerName, uploads };
}

type CallData = Awaited<ReturnType<typeof readCall>>;

function columnsOf(ctx: OrgContext, d: CallData) {
  const { reports, audit, buyerName } = d;
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
  const reportColumns: Column<(typeof reports)[number]>[] = [
    timeColumn('Received', (r) => r.at, ctx.zone),
    { label: 'Report id', value: (r) => r.reportId },
    { label: 'Disposition', value: (r) => r.disposition },
    { label: 'Notes', value: (r) => r.notes ?? '', text: true },
    {
      label: 'Correction',
      value: (r) => {
        const i = reports.indexOf(r);
        return i > 0 && reports[i - 1]!.disposition !== r.disposition ? 'changes the outcome' : '';
      },
    },
    { label: 'Event id', value: (r) => r.id, long: true },
  ];
  const auditColumns: Column<(typeof audit)[number]>[] = [
    timeColumn('When', (a) => a.at, ctx.zone),
    { label: 'Actor', value: (a) => a.actor, text: true },
    { label: 'Action', value: (a) => a.action },
    { label: 'Detail', value: (a) => JSON.stringify(a.detail), long: true },
  ];
  return { offerColumns, reportColumns, auditColumns, uploadColumns: callUploadColumns(ctx) };
}

const dl = (pairs: [string, unknown][]) =>
  html`<dl class="facts">${pairs.map(
    ([k, v]) =>
      html`<dt>${k}</dt><dd>${v === null || v === undefined || v === '' ? '–' : String(v)}</dd>`,
  )}</dl>`;

/** The call, its attribution and the visit it came from. */
function factCards(ctx: OrgContext, d: CallData): Html {
  const { row, call, session, offers, buyerName } = d;
  const when = (at: Date | null) => localTime(at, ctx.zone);
  const landing = session?.landingUrl ?? null;
  return html`<div class="cards">
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
      call.ambiguous ? 'yes: several visitors held this number, so the match is uncertain' : 'no',
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
</div>`;
}

/** One call: what happened, where it came from, and everything recorded about it. */
export const callPage =
  (router: ConsoleRouter): PageHandler<OrgContext> =>
  async (ctx, _q, params) => {
    const d = await readCall(router, ctx, params.id ?? '');
    const { call, reports, offers, uploads, audit } = d;
    const { offerColumns, reportColumns, auditColumns, uploadColumns } = columnsOf(ctx, d);
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
${factCards(ctx, d)}
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
  };
