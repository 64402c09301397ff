import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Metrics } from '../deps.js';
import { tableCoverageGaps } from '../domain/compliance/tables.js';
import type { PoolSizingGauge, PoolUsage } from '../domain/dni/pool-gauges.js';

/** One registry per process (not prom-client's global), so tests can build many apps. */
export function createMetrics(
  poolUsage: () => Promise<PoolUsage[]>,
  poolSizing: () => Promise<PoolSizingGauge[]> = async () => [],
  now: () => number = Date.now,
  listNotes: () => Promise<{ org_id: string; age_days: number }[]> = async () => [],
): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  complianceGauges(registry, listNotes, now);
  poolGauges(registry, poolUsage, poolSizing);
  return { registry, ...requestMetrics(registry), ...deliveryMetrics(registry) };
}

/** Gauges read at scrape time: the national do-not-call copy's age, the compliance tables' gaps. */
function complianceGauges(
  registry: Registry,
  listNotes: () => Promise<{ org_id: string; age_days: number }[]>,
  now: () => number,
): void {
  new Gauge({
    name: 'suppression_national_list_age_days',
    help: 'Age of the newest national do-not-call copy, for organizations within a week of the 31-day limit or past it',
    labelNames: ['org_id'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const n of await listNotes()) this.set({ org_id: n.org_id }, n.age_days);
    },
  });
  new Gauge({
    name: 'compliance_table_coverage_gaps',
    help: 'Compliance data tables (holiday rules) that do not cover the current and next year: 0 is healthy',
    registers: [registry],
    collect() {
      this.set(tableCoverageGaps(now()).length);
    },
  });
}

/** Per-campaign pool gauges: numbers and held numbers per scrape, peak and recommended size. */
function poolGauges(
  registry: Registry,
  poolUsage: () => Promise<PoolUsage[]>,
  poolSizing: () => Promise<PoolSizingGauge[]>,
): void {
  const labels = ['campaign_id', 'org_id', 'code'] as const;
  // prom-client collects gauges concurrently, so both read one shared query per scrape.
  let scrape: Promise<PoolUsage[]> | null = null;
  const usage = () => {
    scrape ??= poolUsage().finally(() => setImmediate(() => (scrape = null)));
    return scrape;
  };
  /** Gauges of one series per campaign: `read` gives the scrape's rows; a null leaves a series out. */
  const campaignGauges =
    <R extends { campaignId: string; orgId: string; code: string }>(read: () => Promise<R[]>) =>
    (name: string, help: string, pick: (r: R) => number | null) =>
      new Gauge({
        name,
        help,
        labelNames: labels,
        registers: [registry],
        async collect() {
          const rows = await read();
          this.reset();
          for (const r of rows) {
            const v = pick(r);
            if (v !== null)
              this.set({ campaign_id: r.campaignId, org_id: r.orgId, code: r.code }, v);
          }
        },
      });
  const poolGauge = campaignGauges(usage);
  poolGauge('dni_pool_numbers', 'Pool numbers per campaign', (u) => u.total);
  poolGauge(
    'dni_pool_held_numbers',
    'Pool numbers held by a live session, per campaign (utilisation = held / numbers)',
    (u) => u.held,
  );
  // Read from a cache (pool-gauges.ts). A failed sizing read leaves these two gauges empty,
  // not the whole scrape failing.
  const sizingGauge = campaignGauges(() => poolSizing().catch((): PoolSizingGauge[] => []));
  sizingGauge(
    'dni_pool_peak_held_numbers',
    'Most pool numbers held at once over the last 24 hours, per campaign',
    (g) => g.peakHeld,
  );
  sizingGauge(
    'dni_pool_recommended_numbers',
    'Pool size the sizing model recommends for 99% attribution accuracy over 30 days (docs/pool-sizing.md); absent without traffic',
    (g) => g.recommended,
  );
}

type RequestMetrics = Pick<
  Metrics,
  | 'httpRequests'
  | 'httpDuration'
  | 'rateLimited'
  | 'dniSessions'
  | 'dniBatchSize'
  | 'routingBatchSize'
  | 'routingOffers'
  | 'routingFallbacks'
  | 'poolExhausted'
>;

/** Requests by route, 429 refusals, and DNI sessions with their batching and pool exhaustion. */
function requestMetrics(registry: Registry): RequestMetrics {
  return {
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'Requests by route and status',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Request latency by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests refused with 429',
      labelNames: ['route'],
      registers: [registry],
    }),
    dniSessions: new Counter({
      name: 'dni_sessions_total',
      help: 'DNI session requests by outcome (sticky, allocated, shared, overflow)',
      labelNames: ['campaign_id', 'outcome'],
      registers: [registry],
    }),
    dniBatchSize: new Histogram({
      name: 'dni_batch_size',
      help: 'DNI requests opened together in one statement (src/domain/dni/batcher.ts)',
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers: [registry],
    }),
    routingBatchSize: new Histogram({
      name: 'routing_batch_size',
      help: 'Voice webhooks of one organization answered together in one transaction (src/domain/carrier-inbound/ringing.ts)',
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers: [registry],
    }),
    routingOffers: new Counter({
      name: 'routing_offers_total',
      help: 'Calls offered to a buyer by a routing plan (a first offer, or the next after a Dial ended)',
      registers: [registry],
    }),
    routingFallbacks: new Counter({
      name: 'routing_fallbacks_total',
      help: "Routed calls sent to their plan's fallback, by reason (no_target, no_more_targets, max_offers): buyers closed, capped or not answering",
      labelNames: ['reason'],
      registers: [registry],
    }),
    poolExhausted: new Counter({
      name: 'dni_pool_exhausted_total',
      help: 'Sessions given a shared or overflow number because the pool had no free number: grow the pool',
      labelNames: ['campaign_id', 'fallback'],
      registers: [registry],
    }),
  };
}

type DeliveryMetrics = Omit<Metrics, 'registry' | keyof RequestMetrics>;

/** Outbound work: touch answers, carrier hand-overs, webhook deliveries, conversion uploads. */
function deliveryMetrics(registry: Registry): DeliveryMetrics {
  return {
    outboundTouches: new Counter({
      name: 'outbound_touches_total',
      help: 'Outbound touch answers by status (queued, blocked, would_queue, would_block)',
      labelNames: ['status', 'replayed'],
      registers: [registry],
    }),
    dispatchAttempts: new Counter({
      name: 'outbound_dispatch_attempts_total',
      help: 'Hand-overs to the carrier by outcome (accepted, retry, failed, unknown)',
      labelNames: ['carrier', 'outcome'],
      registers: [registry],
    }),
    webhookAttempts: new Counter({
      name: 'webhook_delivery_attempts_total',
      help: 'Webhook delivery attempts by outcome (delivered, failed, gone)',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    webhookEndpointsDisabled: new Counter({
      name: 'webhook_endpoints_disabled_total',
      help: 'Webhook endpoints disabled by the worker: gone (410) or failing (a long run of failures)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    conversionUploads: new Counter({
      name: 'conversion_uploads_total',
      help: 'Conversion upload attempts per destination and outcome (sent, retry, failed) and reason code',
      labelNames: ['destination', 'platform', 'outcome', 'reason'],
      registers: [registry],
    }),
  };
}

/** Request count and latency by route pattern, never by raw URL (bounded label values). */
export function instrument(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}
