import type { Clock, Metrics } from './deps.js';
import type { Queries } from './domain/admin/queries.js';
import { RingBatchers } from './domain/carrier-inbound/ringing.js';
import { SessionBatcher } from './domain/dni/batcher.js';
import { cachedPoolSizing } from './domain/dni/pool-gauges.js';
import type { Repositories } from './domain/repositories.js';
import { suppressionListNotes } from './domain/suppression/freshness.js';
import type { FailureTranslator } from './errors.js';
import { createMetrics } from './http/metrics.js';
import type { Store } from './store/db.js';
import { classifyStoreError, translateStoreFailure } from './store/errors.js';
import { createQueries } from './store/queries/index.js';
import { dniSessionStore, poolUsage } from './store/repos/dni.js';
import { createRepositories } from './store/repos/index.js';

/** DNI batching: DNI_BATCH_CONNECTIONS and DNI_BATCH_MAX (src/config.ts). */
export interface DniBatching {
  connections?: number | undefined;
  maxSize?: number | undefined;
}

/** What the apps and jobs are given over one store: the one place it is wired. */
export interface StoreWiring {
  repos: Repositories;
  queries: Queries;
  sessions: SessionBatcher;
  ringing: RingBatchers;
  metrics: Metrics;
  ping(): Promise<void>;
  storeFailure: FailureTranslator;
}

/**
 * DNI opens are batched per process and store (src/domain/dni/batcher.ts):
 * `connections` batches in flight on PostgreSQL (DNI_BATCH_CONNECTIONS), one
 * on PGlite, which runs one query at a time anyway.
 */
export function sessionBatcher(store: Store, metrics?: Metrics, o: DniBatching = {}) {
  return new SessionBatcher(dniSessionStore(store), {
    inFlight: store.kind === 'pglite' ? 1 : (o.connections ?? 2),
    maxSize: o.maxSize ?? 64,
    ...(metrics ? { onBatch: (size: number) => metrics.dniBatchSize.observe(size) } : {}),
  });
}

/**
 * Voice webhooks are batched per process, store and organization (src/domain/carrier-inbound/
 * ringing.ts): two batches of an organization in flight on PostgreSQL (one is read and decided
 * while the other runs), one on PGlite; 64 calls a batch at most.
 */
export function ringBatchers(store: Store, repos: Repositories, metrics?: Metrics) {
  return new RingBatchers(repos, {
    inFlight: store.kind === 'pglite' ? 1 : 2,
    maxSize: 64,
    // A lost connection fails the batch (503); anything else may be one call's doing.
    retryAlone: (err) => classifyStoreError(err) === null,
    ...(metrics ? { onBatch: (size: number) => metrics.routingBatchSize.observe(size) } : {}),
  });
}

/**
 * The repositories, the admin queries, the DNI and voice batchers, the metrics (whose pool
 * gauges read the store on a scrape) and the store's translation of its failures, built once
 * over `store`: by the runtime, src/worker.ts, the OpenAPI dump and the test harness alike.
 */
export function wireStore(store: Store, clock: Clock, dni: DniBatching = {}): StoreWiring {
  const repos = createRepositories(store);
  const metrics = createMetrics(
    () => poolUsage(store, new Date(clock.now())),
    cachedPoolSizing(repos, () => clock.now()),
    () => clock.now(),
    () => suppressionListNotes(repos, clock.now()),
  );
  return {
    repos,
    queries: createQueries(store),
    sessions: sessionBatcher(store, metrics, dni),
    ringing: ringBatchers(store, repos, metrics),
    metrics,
    ping: () => store.ping(),
    storeFailure: translateStoreFailure,
  };
}
