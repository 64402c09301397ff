import type { ConsoleCallRow } from '../../domain/admin/queries.js';
import { AppError } from '../../errors.js';
import { decodeCursor, encodeCursor, ID_SHAPE } from '../../routes/admin/paging.js';
import type { OrgContext } from '../context.js';
import { html } from '../html.js';
import { type Column, csvLink, orgPath, table } from '../layout.js';
import type { ConsoleRouter, PageResult } from '../router.js';
import { localTime, timeCell } from '../time.js';
import { callUploadColumns } from './conversion-uploads.js';

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

function callColumns(ctx: OrgContext): Column<CallRow>[] {
  const link = (r: CallRow) =>
    html`<a href="${orgPath(ctx.org.id, `calls/${r.call.id}`)}">${timeCell(r.call.startedAt, ctx.zone)}</a>`;
  return [
    { label: 'Started', value: (r) => r.call.startedAt.toISOString(), cell: link },
    { label: 'Campaign', value: (r) => r.campaignCode },
    { label: 'Caller', value: (r) => r.call.fromNumber },
    { label: 'Tracking number', value: (r) => r.call.trackingNumber },
    { label: 'Source', value: (r) => r.source },
    { label: 'UTM campaign', value: (r) => r.session?.utmCampaign ?? '' },
    { label: 'Attribution', value: (r) => r.call.attribution },
    { label: 'Shared number', value: (r) => (r.call.ambiguous ? 'yes' : 'no') },
    { label: 'Status', value: (r) => r.call.status ?? '' },
    {
      label: 'Duration',
      value: (r) => r.call.durationSeconds,
      cell: (r) => duration(r.call.durationSeconds),
      numeric: true,
    },
    { label: 'Buyer outcome', value: (r) => r.call.disposition ?? '' },
    { label: 'Call id', value: (r) => r.call.id },
  ];
}

export function callPages(router: ConsoleRouter): void {
  const { config, console: reads } = router.deps.queries;

  router.orgPage('/calls', 'calls', async (ctx, q): Promise<PageResult> => {
    const code = q.campaign?.trim() || undefined;
    const campaign = code ? await config.findCampaign(ctx.org.id, code) : null;
    if (code && !campaign) throw new AppError('Not Found');
    const csv = q.format === 'csv';
    const rows = await reads.searchCalls(ctx.org.id, {
      since: ctx.range.since,
      until: ctx.range.until,
      q: q.q?.slice(0, 200),
      campaignId: campaign?.id,
      // A download holds every call of the range, up to a bound a spreadsheet can take.
      limit: csv ? 50_000 : PAGE + 1,
      after: csv ? undefined : decodeCursor(q.cursor, ID_SHAPE),
    });
    const more = !csv && rows.length > PAGE;
    const shown = more ? rows.slice(0, PAGE) : rows;
    const columns = callColumns(ctx);
    const campaigns = await config.listCampaigns(ctx.org.id, { limit: 200 });
    const base = orgPath(ctx.org.id, 'calls');
    const keep = { from: ctx.range.from, to: ctx.range.to, q: q.q, campaign: code };
    const nextQuery = new URLSearchParams(
      Object.entries({ ...keep, cursor: more ? encodeCursor(shown.at(-1)!.call.id) : '' }).filter(
        (e): e is [string, string] => !!e[1],
      ),
    );
    return {
      title: 'Calls',
      tables: { calls: { columns, rows: shown } },
      body: html`<form method="get" action="${base}" class="filters" role="search">
  <input type="hidden" name="from" value="${ctx.range.from}">
  <input type="hidden" name="to" value="${ctx.range.to}">
  <label>Search <input type="search" name="q" value="${q.q ?? ''}" placeholder="caller number, call id, UTM or landing page"></label>
  <label>Campaign <select name="campaign"><option value="">All campaigns</option>${campaigns.map(
    ({ campaign: c }) =>
      html`<option value="${c.code}"${c.code === code ? html` selected` : ''}>${c.code} · ${c.name}</option>`,
  )}</select></label>
  <button type="submit">Search</button>
</form>
${table({
  caption: 'Calls, newest first',
  columns,
  rows: shown,
  csv: csvLink(keep, base, 'calls'),
  empty:
    campaigns.length === 0
      ? html`No calls yet. Create a campaign first (Campaigns and pools), put its tracking numbers on your site with the website kit, and calls will show here.`
      : q.q
        ? html`No call matches “${q.q}” in this range. Try a wider date range or fewer words.`
        : html`No calls in this range. Calls appear here when someone rings one of your tracking numbers.`,
})}
${more ? html`<p class="pager"><a href="${base}?${nextQuery.toString()}" rel="next">Older calls</a></p>` : ''}`,
    };
  });

  router.orgPage('/calls/:id', 'calls', async (ctx, _q, params) => {
    const row = await reads.findCall(ctx.org.id, params.id ?? '');
    if (!row) throw new AppError('Not Found');
    const { call, session } = row;
    const reports = await reads.callReports(ctx.org.id, call.id);
    const audit = await reads.callAudit(ctx.org.id, [call.id, ...reports.map((r) => r.id)]);
    const uploads = await router.deps.queries.conversions.listCallUploads(ctx.org.id, call.id);
    const uploadColumns = callUploadColumns(ctx);
    const when = (d: Date | null) => localTime(d, ctx.zone);
    const reportColumns: Column<(typeof reports)[number]>[] = [
      {
        label: 'Received',
        value: (r) => r.at.toISOString(),
        cell: (r) => timeCell(r.at, ctx.zone),
      },
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
      { label: 'When', value: (a) => a.at.toISOString(), cell: (a) => timeCell(a.at, ctx.zone) },
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
