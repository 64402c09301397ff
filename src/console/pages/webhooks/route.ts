import { WebhookAdmin } from '../../../domain/admin/webhooks.js';
import { actorOf } from '../../../domain/console/accounts.js';
import { collectExport, openConversionExport } from '../../../domain/exports/index.js';
import { AppError, errors } from '../../../errors.js';
import type { OrgContext } from '../../context.js';
import { html } from '../../html.js';
import { type Column, csvLink, numberColumn, orgPath, table, timeColumn } from '../../layout.js';
import { type ConsoleRouter, own, type PageResult } from '../../router.js';
import { conversionColumns, destinationRows } from '../shared/conversion-uploads.js';

const NOTICES: Record<string, string> = {
  replayed:
    'Queued again: the worker sends them on its next round, with their original webhook-id.',
  nothing: 'Nothing to replay: no failed delivery in this range.',
};

export function webhookPages(router: ConsoleRouter): void {
  const { deps } = router;
  const { config, webhooks } = deps.queries;
  const admin = (ctx: OrgContext, requestId: string) =>
    new WebhookAdmin(
      {
        repos: deps.repos,
        keyring: deps.keyring,
        now: () => ctx.now,
        requestId,
        actor: actorOf(ctx.viewer.user),
      },
      deps.webhooks,
    );

  router.orgPage('/webhooks', 'webhooks', async (ctx, q): Promise<PageResult> => {
    const [endpoints, campaigns, counts, destinations] = await Promise.all([
      deps.repos.webhookEndpoints.listEndpoints(deps.repos.db, ctx.org.id),
      config.listCampaigns(ctx.org.id, { limit: 200 }),
      deps.queries.console.deliveryCounts(ctx.org.id, ctx.range.since, ctx.range.until),
      destinationRows(deps.queries.conversions, ctx.org.id),
    ]);
    const destinationColumns = conversionColumns(ctx);
    const countOf = new Map(counts.map((c) => [c.endpointId, c]));
    const sum = (k: 'total' | 'delivered' | 'failed' | 'retrying') =>
      counts.reduce((n, c) => n + c[k], 0);
    const deliveries = (
      await Promise.all(
        endpoints.map(async (e) =>
          (
            await webhooks.listDeliveries(ctx.org.id, e.id, { limit: 50 })
          ).map((d) => ({ ...d, url: e.url })),
        ),
      )
    )
      .flat()
      .filter((d) => d.d.createdAt >= ctx.range.since && d.d.createdAt < ctx.range.until)
      .sort((a, b) => b.d.createdAt.getTime() - a.d.createdAt.getTime());
    type E = (typeof endpoints)[number];
    type D = (typeof deliveries)[number];
    const manager = ctx.role !== 'viewer';
    const csrf = html`<input type="hidden" name="_csrf" value="${ctx.csrf}">`;
    const endpointColumns: Column<E>[] = [
      { label: 'URL', value: (e) => e.url },
      { label: 'Events', value: (e) => e.events.join(' ') },
      {
        label: 'State',
        value: (e) =>
          e.enabled ? 'enabled' : `disabled${e.disabledReason ? `: ${e.disabledReason}` : ''}`,
      },
      ...(['total', 'delivered', 'failed', 'retrying'] as const).map((k) =>
        numberColumn(
          { total: 'Deliveries', delivered: 'Delivered', failed: 'Failed', retrying: 'Retrying' }[
            k
          ],
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
                html`<form method="post" action="${orgPath(ctx.org.id, `webhooks/${e.id}/replay`)}" class="inline">${csrf}<input type="hidden" name="since" value="${ctx.range.since.toISOString()}"><button type="submit" class="secondary" aria-label="Replay failed deliveries to ${e.url}">Replay failed</button></form>`,
            },
          ]
        : []),
    ];
    const deliveryColumns: Column<D>[] = [
      timeColumn('Created', (d) => d.d.createdAt, ctx.zone),
      { label: 'Event', value: (d) => d.type },
      { label: 'Endpoint', value: (d) => d.url },
      { label: 'State', value: (d) => d.d.state },
      { label: 'Attempts', value: (d) => d.d.attempts, numeric: true },
      { label: 'Last answer', value: (d) => d.d.lastStatus ?? d.d.lastError ?? '' },
    ];
    const failures = deliveries.filter((d) => d.d.state === 'failed');
    const path = orgPath(ctx.org.id, 'webhooks');
    const keep = { from: ctx.range.from, to: ctx.range.to };
    return {
      title: 'Webhooks and exports',
      notice: own(NOTICES, q.notice) ?? null,
      tables: {
        endpoints: { columns: endpointColumns, rows: endpoints },
        deliveries: { columns: deliveryColumns, rows: deliveries },
        failures: { columns: deliveryColumns, rows: failures },
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
  columns: endpointColumns,
  rows: endpoints,
  csv: csvLink(keep, path, 'endpoints'),
  stacked: true,
  empty:
    'No webhook endpoint. Your operator registers one with tracking-admin webhook create; events (call.received, buyer_report.recorded…) are then signed and sent to it.',
})}
${table({ caption: 'Failed deliveries', columns: deliveryColumns, rows: failures, csv: csvLink(keep, path, 'failures'), stacked: true, empty: 'No failed delivery in this range.' })}
${table({ caption: 'Recent deliveries', columns: deliveryColumns, rows: deliveries.slice(0, 100), csv: csvLink(keep, path, 'deliveries'), stacked: true, empty: 'No delivery in this range.' })}
${table({
  caption: 'Conversion destinations',
  columns: destinationColumns,
  rows: destinations,
  csv: csvLink(keep, path, 'destinations'),
  stacked: true,
  empty:
    'No conversion destination. Your operator adds one with tracking-admin destination create; buyer successes are then uploaded to Google Ads, Meta, Microsoft Advertising or GA4.',
})}
<section class="card"><h2>Conversion exports</h2>
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
</section>`,
    };
  });

  // A download, not a page: the same file as the admin API's conversion export.
  router.orgPage('/webhooks/export', 'webhooks', async (ctx, q) => {
    const format = q.export === 'meta' ? 'meta' : 'google-ads';
    const opened = await openConversionExport(deps.repos, {
      orgId: ctx.org.id,
      campaignCode: q.campaign ?? '',
      format,
      since: ctx.range.since,
      now: ctx.now,
    });
    if (opened.kind === 'campaign_not_found') throw new AppError('Not Found');
    if (opened.kind === 'invalid_config')
      throw errors.conflict(`conversion_config_invalid: ${opened.problem}`);
    const file = await collectExport(opened.export);
    return {
      title: '',
      body: html``,
      download: {
        type: opened.export.contentType,
        name: `conversions-${q.campaign}-${format}.${opened.export.extension}`,
        body: file,
      },
    };
  });

  router.orgAction('/webhooks/:endpoint/replay', async (ctx, form, p, req) => {
    const since = new Date(form.get('since') ?? '');
    if (Number.isNaN(since.getTime()))
      throw errors.field(['body', 'since'], 'not a time', form.get('since'));
    // The admin API's replay: another organization's endpoint is a 404, the audit line says who.
    const n = await admin(ctx, req.id).replay(
      ctx.org.id,
      p.endpoint ?? '',
      { since },
      { since: since.toISOString() },
    );
    return `${orgPath(ctx.org.id, 'webhooks')}?notice=${n > 0 ? 'replayed' : 'nothing'}`;
  });
}
