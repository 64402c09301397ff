import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AppDeps, Clock } from './app.js';
import type { Config } from './config.js';
import { Keyring } from './domain/auth/keyring.js';
import { createCarrier } from './domain/outbound/carriers/index.js';
import { tableCoverageGaps } from './domain/outbound/compliance/tables.js';
import { DispatchWorker } from './domain/outbound/dispatch/worker.js';
import { FccRndChecker, SimulatedRndChecker } from './domain/outbound/rnd/checker.js';
import { RndRefresher } from './domain/outbound/rnd/refresh.js';
import { suppressionListNotes } from './domain/outbound/suppression/freshness.js';
import {
  MemoryRateLimiter,
  type RateLimiter,
  RedisRateLimiter,
} from './domain/rate-limit/limiter.js';
import { createMetrics } from './http/metrics.js';
import { openStore, type Store } from './store/db.js';
import { poolUsage } from './store/repos/dni.js';
import { startKeyringSync } from './store/repos/keyring-sync.js';

/** The store the configuration names, migrated: DATABASE_URL, else PGlite in DATA_DIR. */
export async function openConfiguredStore(
  config: Config,
  poolSize = config.databasePoolSize,
): Promise<Store> {
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    poolSize,
    pgliteSharedBuffers: config.pgliteSharedBuffers,
  });
  await store.migrate();
  return store;
}

/** The configured RND checker, or null when RND_CHECKER=off. */
export function createRndRefresher(
  config: Config,
  deps: Pick<AppDeps, 'store' | 'clock' | 'logger'>,
): RndRefresher | null {
  const r = config.rnd;
  if (r.checker === 'off') return null;
  const checker =
    r.checker === 'fcc'
      ? new FccRndChecker(r.baseUrl as string, r.token as string)
      : new SimulatedRndChecker();
  return new RndRefresher(deps.store, checker, () => deps.clock.now(), deps.logger, {
    intervalMs: r.intervalMs,
    maxAgeDays: r.refreshDays,
    batch: 500,
  });
}

export interface Runtime extends AppDeps {
  /** The dispatch worker, not yet started; null with WORKER=0. */
  worker: DispatchWorker | null;
  close(): Promise<void>;
}

/** A dispatch worker over the configured carrier (also used by src/worker.ts). */
export function createWorker(
  config: Config,
  deps: Pick<AppDeps, 'store' | 'clock' | 'logger'> & Partial<Pick<AppDeps, 'metrics'>>,
): DispatchWorker {
  return new DispatchWorker(
    {
      ...deps,
      carrier: createCarrier(config, deps.store, deps.clock),
      logger: deps.logger.child({ component: 'dispatch' }),
    },
    {
      pollMs: config.workerPollMs,
      leaseMs: config.workerLeaseSeconds * 1000,
      maxAttempts: config.dispatchMaxAttempts,
    },
  );
}

/**
 * Logs a warning when a compliance data table does not cover the current and the next year, so
 * an operator hears of it long before touches start failing closed. Returns the gaps.
 */
export function warnOnTableCoverage(logger: Pick<Logger, 'warn'>, nowMs: number): string[] {
  const gaps = tableCoverageGaps(nowMs);
  if (gaps.length > 0) {
    logger.warn({ gaps }, 'compliance data tables do not cover the current and next year');
  }
  return gaps;
}

/** Everything the apps depend on, opened in order and closed in reverse. */
export async function openRuntime(config: Config, logger: Logger, clock: Clock): Promise<Runtime> {
  const store = await openConfiguredStore(config);
  const keyring = new Keyring();
  const sync = await startKeyringSync(store, keyring, config.authRefreshMs, logger);
  let limiter: RateLimiter;
  if (config.redisUrl) {
    const redis = new Redis(config.redisUrl, {
      enableAutoPipelining: true,
      maxRetriesPerRequest: 2,
    });
    limiter = new RedisRateLimiter(redis);
  } else {
    limiter = new MemoryRateLimiter();
  }
  const metrics = createMetrics(
    () => poolUsage(store, new Date(clock.now())),
    () => clock.now(),
    () => suppressionListNotes(store.db, clock.now()),
  );
  warnOnTableCoverage(logger, clock.now());
  const worker = config.worker ? createWorker(config, { store, clock, logger, metrics }) : null;
  const rnd = createRndRefresher(config, { store, clock, logger });
  // The schedule runs where the dispatch worker runs; grants trigger a check in any process.
  if (config.worker) rnd?.start();
  logger.info(
    {
      store: store.kind,
      limiter: config.redisUrl ? 'redis' : 'memory',
      carrier: config.carrier,
      worker: worker !== null,
    },
    'runtime ready',
  );
  return {
    store,
    keyring,
    limiter,
    clock,
    metrics,
    logger,
    twilio: { authToken: config.twilioAuthToken, publicBaseUrl: config.publicBaseUrl },
    worker,
    rnd: rnd ?? undefined,
    async close() {
      await rnd?.stop();
      await worker?.stop();
      sync.stop();
      await limiter.close();
      await store.close();
    },
  };
}
