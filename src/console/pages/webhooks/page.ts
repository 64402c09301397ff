import type { OrgContext } from '../../context.js';
import { type Html, html } from '../../html.js';
import { orgPath } from '../../layout.js';
import { type ConsoleRouter, own, type PageHandler } from '../../router.js';
import { type Column, csvLink, numberColumn, table, timeColumn } from '../../table.js';
import { csrfField } from '../shared/admin.js';
import { conversionColumns, destinationRows } from '../shared/conversion-uploads.js';

const NOTICES: Record<string, string> = {
  replayed:
    'Queued again: the worker sends them on its next round, with their original webhook-id.',
  nothing: 'Nothing to replay: no failed delivery in this range.',
};

/** Endpoints, their delivery counts in the range, recent deliveries and conversion destinations. */
async function readWebhooks(router: ConsoleRouter, ctx: OrgContext) {
  const [endpoints, campaigns, counts, destinations] = await Promise.all([
    router.deps.repos.webhookEndpoints.listEndpoints(router.deps.repos.db, ctx.org.id),
    router.deps.queries.config.listCampaigns(ctx.org.id, { limit: 200 }),
    router.deps.queries.console.deliveryCounts(ctx.org.id, ctx.range.since, ctx.range.until),
    destinationRows(router.deps.queries.conversions, ctx.org.id),
  ]);
  const countOf = new Map(counts.map((c) => [c.endpointId, c]));
  const sum = (k: 'total' | 'delivered' | 'failed' | 'retrying') =>
    counts.reduce((n, c) => n + c[k], 0);
  const deliveries = (
    await Promise.all(
      endpoints.map(async (e) =>
        (
          await router.deps.queries.webhooks.listDeliveries(ctx.org.id, e.id, { limit: 50 })
        ).map((d) => ({ ...d, url: e.url })),
      ),
    )
  )
    .flat()
    .filter((d) => d.d.createdAt >= ctx.range.since && d.d.createdAt < ctx.range.until)
    .sort((a, b) => b.d.createdAt.getTime() - a.d.createdAt.getTime());
  return { endpoints, campaigns, counts, destinations, countOf, sum, deliveries };
}

type WebhookData = Awaited<ReturnType<typeof readWebhooks>>;
type E = WebhookData['endpoints'][number];
type D = WebhookData['deliveries'][number];

function endpointColumns(ctx: OrgContext, countOf: WebhookData['countOf']): Column<E>[] {
  const manager = ctx.role !== 'viewer';
  return [
    { label: 'URL', value: (e) => e.url },
    { label: 'Events', value: (e) => e.events.join(' ') },
    {
      label: 'State',
      value: (e) =>
        e.enabled ? 'enabled' : `disabled${e.disabledReason ? `: ${e.disabledReason}` : ''}`,
    },
    ...(['total', 'delivered', 'failed', 'retrying'] as const).map((k) =>
      numberColumn(
        { total: 'Deliveries', delivered: 'Delivered', failed: 'Failed', retrying: 'Retrying' }[k],
        (e: E) => countOf.get(e.id)?.[k] ?? 0,
        ctx.num,
      ),
    ),
    { label: 'Failures in a row', value: (e) => e.consecutiveFailures, numeric: true },
    ...(manager
      ? [
          {
            label: 'Replay',
            value: () => '',
            cell: (e: E) =>
              html`<form method="post" action="${orgPath(ctx.org.id, `webhooks/${e.id}/replay`)}" class="inline">${csrfField(ctx)}<input type="hidden" name="since" value="${ctx.range.since.toISOString()}"><button type="submit" class="secondary" aria-label="Replay failed deliveries to ${e.url}">Replay failed</button></form>`,
          },
        ]
      : []),
  ];
}

function deliveryColumns(ctx: OrgContext): Column<D>[] {
  return [
    timeColumn('Created', (d) => d.d.createdAt, ctx.zone),
    { label: 'Event', value: (d) => d.type },
    { label: 'Endpoint', value: (d) => d.url },
    { label: 'State', value: (d) => d.d.state },
    { label: 'Attempts', value: (d) => d.d.attempts, numeric: true },
    { label: 'Last answer', value: (d) => d.d.lastStatus ?? d.d.lastError ?? '' },
  ];
}

/** The offline conversion files of a campaign, downloaded from /webhooks/export. */
function exportCard(ctx: OrgContext, campaigns: WebhookData['campaigns']): Html {
  return html`<section class="card"><h2>Conversion exports</h2>
${
  campaigns.length === 0
    ? html`<p class="empty">No campaign yet, so nothing to export.</p>`
    : html`<p>Calls with a buyer success since the start of the range, as the ad platforms’ offline conversion files.</p>
<form method="get" action="${orgPath(ctx.org.id, 'webhooks/export')}" class="filters">
<input type="hidden" name="from" value="${ctx.range.from}"><input type="hidden" name="to" value="${ctx.range.to}">
<label>Campaign <select name="campaign">${campaigns.map(({ campaign: c }) => html`<option value="${c.code}">${c.code} · ${c.name}</option>`)}</select></label>
<label>Format <select name="export"><option value="google-ads">Google Ads (CSV)</option><option value="meta">Meta (JSON)</option></select></label>
<button type="submit">Download</button>
</form>`
}
</section>`;
}

/** Webhook deliveries in the range, endpoints, conversion destinations and exports. */
export const webhooksPage =
  (router: ConsoleRouter): PageHandler<OrgContext> =>
  async (ctx, q) => {
    const d = await readWebhooks(router, ctx);
    const { endpoints, campaigns, destinations, sum, deliveries } = d;
    const destinationColumns = conversionColumns(ctx);
    const endpointCols = endpointColumns(ctx, d.countOf);
    const deliveryCols = deliveryColumns(ctx);
    const failures = deliveries.filter((d) => d.d.state === 'failed');
    const path = orgPath(ctx.org.id, 'webhooks');
    const keep = { from: ctx.range.from, to: ctx.range.to };
    return {
      title: 'Webhooks and exports',
      notice: own(NOTICES, q.notice) ?? null,
      tables: {
        endpoints: { columns: endpointCols, rows: endpoints },
        deliveries: { columns: deliveryCols, rows: deliveries },
        failures: { columns: deliveryCols, rows: failures },
        destinations: { columns: destinationColumns, rows: destinations },
      },
      body: html`<section class="kpis" aria-label="Webhook deliveries in the range">
<div class="kpi"><div class="label">Deliveries</div><div class="value" data-metric="deliveries">${ctx.num(sum('total'))}</div></div>
<div class="kpi"><div class="label">Delivered</div><div class="value" data-metric="delivered">${ctx.num(sum('delivered'))}</div></div>
<div class="kpi"><div class="label">Failed (gave up)</div><div class="value" data-metric="failed">${ctx.num(sum('failed'))}</div></div>
<div class="kpi"><div class="label">Retrying</div><div class="value" data-metric="retrying">${ctx.num(sum('retrying'))}</div></div>
</section>
${table({
  caption: 'Endpoints',
  columns: endpointCols,
  rows: endpoints,
  csv: csvLink(keep, path, 'endpoints'),
  stacked: true,
  empty:
    'No webhook endpoint. Your operator registers one with tracking-admin webhook create; events (call.received, buyer_report.recorded…) are then signed and sent to it.',
})}
${table({ caption: 'Failed deliveries', columns: deliveryCols, rows: failures, csv: csvLink(keep, path, 'failures'), stacked: true, empty: 'No failed delivery in this range.' })}
${table({ caption: 'Recent deliveries', columns: deliveryCols, rows: deliveries.slice(0, 100), csv: csvLink(keep, path, 'deliveries'), stacked: true, empty: 'No delivery in this range.' })}
${table({
  caption: 'Conversion destinations',
  columns: destinationColumns,
  rows: destinations,
  csv: csvLink(keep, path, 'destinations'),
  stacked: true,
  empty:
    'No conversion destination. Your operator adds one with tracking-admin destination create; buyer successes are then uploaded to Google Ads, Meta, Microsoft Advertising or GA4.',
})}
${exportCard(ctx, campaigns)}`,
    };
  };
