import type { CampaignSummaryRow } from '../../../domain/admin/queries.js';
import { foldSource } from '../../../domain/reports/sources.js';
import { AppError } from '../../../errors.js';
import { decodeCursor, encodeCursor, ID_SHAPE } from '../../../http/paging.js';
import type { OrgContext } from '../../context.js';
import { type Html, html } from '../../html.js';
import { orgPath } from '../../layout.js';
import type { ConsoleRouter, PageHandler, Query } from '../../router.js';
import { csvLink, table } from '../../table.js';
import { OUTCOME_FILTERS } from '../shared/outcomes.js';
import { callColumns } from './columns.js';

const PAGE = 50;

/** The search box and filters; the range is kept as it is. */
function filtersForm(
  ctx: OrgContext,
  base: string,
  q: Query,
  campaigns: CampaignSummaryRow[],
  picked: {
    code: string | undefined;
    status: string | undefined;
    source: string | undefined;
    buyerId: string | undefined;
  },
): Html {
  const { code, status, source, buyerId } = picked;
  return html`<form method="get" action="${base}" class="filters" role="search">
<input type="hidden" name="from" value="${ctx.range.from}">
<input type="hidden" name="to" value="${ctx.range.to}">
${buyerId ? html`<input type="hidden" name="buyer" value="${buyerId}">` : ''}
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
</form>`;
}

/** The calls of the range, filtered and searched, fifty at a time. */
export const callsPage =
  (router: ConsoleRouter): PageHandler<OrgContext> =>
  async (ctx, q) => {
    const { config, console: reads } = router.deps.queries;
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
      body: html`${filtersForm(ctx, base, q, campaigns, { code, status, source, buyerId: buyer?.id })}
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
  };
