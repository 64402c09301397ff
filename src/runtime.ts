import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { Counter, Gauge } from 'prom-client';
import { createCarrier } from './adapters/carriers.js';
import { FccRndChecker } from './adapters/fcc-rnd-checker.js';
import { connectRedis } from './adapters/redis.js';
import { RedisRateLimiter } from './adapters/redis-limiter.js';
import { watchRedis } from './adapters/redis-watchdog.js';
import { WebhookSender } from './adapters/webhook-sender.js';
import type { Config } from './config.js';
import type { AppDeps, Clock, Metrics } from './deps.js';
import { Keyring } from './domain/auth/keyring.js';
import { tableCoverageGaps } from './domain/compliance/tables.js';
import { versionReadiness } from './domain/conversions/api-versions.js';
import { FailOpenRateLimiter } from './domain/rate-limit/fail-open.js';
import { MemoryRateLimiter, type RateLimiter } from './domain/rate-limit/limiter.js';
import type { Repositories } from './domain/repositories.js';
import { SimulatedRndChecker } from './domain/rnd/checker.js';
import { STALE_WARNING_DAYS, suppressionListNotes } from './domain/suppression/freshness.js';
import { dataDirCheck, type ReadinessCheck, storeCheck } from './http/readiness.js';
import { openStore, type Store } from './store/db.js';
import { startKeyringSync } from './store/repos/keyring-sync.js';
import { wireStore } from './wiring.js';
import { DispatchWorker } from './workers/dispatch.js';
import { RndRefresher } from './workers/rnd-checks.js';
import { createUploadWorker, openConversions } from './workers/upload-runtime.js';
import type { UploadWorker } from './workers/uploads.js';
import { WebhookWorker } from './workers/webhooks.js';

/**
 * The store the configuration names, migrated: DATABASE_URL, else PGlite in DATA_DIR. With a
 * logger it says what it is doing: a first start spends ~30 s creating and migrating DATA_DIR.
 */
export async function openConfiguredStore(
  config: Config,
  poolSize = config.databasePoolSize,
  log?: Pick<Logger, 'info'>,
): Promise<Store> {
  const started = Date.now();
  if (config.databaseUrl) log?.info('connecting to PostgreSQL (DATABASE_URL)');
  else if (!existsSync(join(config.dataDir, 'PG_VERSION'))) {
    log?.info(
      { dataDir: config.dataDir },
      `first start: initialising a new database in DATA_DIR ${config.dataDir} (this takes a while)`,
    );
  } else
    log?.info({ dataDir: config.dataDir }, `opening the database in DATA_DIR ${config.dataDir}`);
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    poolSize,
    pgliteSharedBuffers: config.pgliteSharedBuffers,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    queueTimeoutMs: config.databaseQueueTimeoutMs,
  });
  log?.info('applying database migrations');
  await store.migrate();
  log?.info({ ms: Date.now() - started }, 'database ready');
  return store;
}

/** The configured RND checker, or null when RND_CHECKER=off. */
export function createRndRefresher(
  config: Config,
  deps: Pick<AppDeps, 'repos' | 'clock' | 'logger'>,
): RndRefresher | null {
  const r = config.rnd;
  if (r.checker === 'off') return null;
  const checker =
    r.checker === 'fcc'
      ? new FccRndChecker(r.baseUrl as string, r.token as string)
      : new SimulatedRndChecker();
  return new RndRefresher(deps.repos, checker, () => deps.clock.now(), deps.logger, {
    intervalMs: r.intervalMs,
    maxAgeDays: r.refreshDays,
    batch: 500,
  });
}

export interface Runtime extends AppDeps {
  /** For the process entries and the bench only: routes get `AppDeps`, which has no store. */
  store: Store;
  /** The dispatch worker, not yet started; null with WORKER=0. */
  worker: DispatchWorker | null;
  /** The webhook delivery worker, not yet started; null with WORKER=0. */
  webhookWorker: WebhookWorker | null;
  /** The conversion upload worker, not yet started; null with WORKER=0. */
  uploadWorker: UploadWorker | null;
  close(): Promise<void>;
}

/** A dispatch worker over the configured carrier (also used by src/worker.ts). */
export function createWorker(
  config: Config,
  deps: Pick<AppDeps, 'repos' | 'clock' | 'logger'> & Partial<Pick<AppDeps, 'metrics'>>,
): DispatchWorker {
  return new DispatchWorker(
    {
      ...deps,
      carrier: createCarrier(config, deps.repos, deps.clock),
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
 * The rate limiter the configuration names, and what /readyz asks. With
 * Redis, counting fails open to this process when Redis does not answer
 * within REDIS_TIMEOUT_MS (README, "Redis outages").
 */
function openLimiter(
  config: Config,
  store: Store,
  logger: Logger,
): { limiter: RateLimiter; readiness: ReadinessCheck[] } {
  const readiness = [storeCheck(store)];
  if (!config.databaseUrl) readiness.push(dataDirCheck(config.dataDir));
  if (!config.redisUrl) return { limiter: new MemoryRateLimiter(), readiness };
  const { redis, describeFailure } = connectRedis(config.redisUrl, config.redisTimeoutMs);
  watchRedis(redis, {
    budgetMs: config.redisTimeoutMs,
    everyMs: config.redisRetryMs,
    onStall: (reason) => logger.warn({ reason }, 'Redis connection stalled: replacing it'),
  });
  const limiter = new FailOpenRateLimiter(new RedisRateLimiter(redis), {
    budgetMs: config.redisTimeoutMs,
    probeAfterMs: config.redisRetryMs,
    onOutage: (err) =>
      logger.warn(
        { reason: describeFailure(err) },
        'Redis unreachable: rate limits now count in this process until it answers again',
      ),
    onRecovery: (outageMs) =>
      logger.info({ outageMs }, 'Redis answers again: rate limits are shared again'),
  });
  // A new connection that answers: the next request asks Redis instead of waiting out the
  // rest of the probe interval.
  redis.on('ready', () => limiter.probeSoon());
  readiness.push({
    name: 'redis',
    // A Redis that accepts connections but never answers (hung, or a network partition) is
    // the same outage as a refused one: DNI keeps answering, so the process stays ready.
    unavailable: 'degraded',
    async check() {
      const ok = await redis.ping().then(
        () => true,
        () => false,
      );
      if (ok && limiter.health() === 'ok') return { status: 'ok' };
      return {
        status: 'degraded',
        detail: ok
          ? 'recovering: counting in process until the next request reaches Redis'
          : 'unreachable: rate limits count per process',
      };
    },
  });
  return { limiter, readiness };
}

function limiterMetrics(metrics: Metrics, limiter: FailOpenRateLimiter): void {
  new Gauge({
    name: 'rate_limit_store_degraded',
    help: '1 while Redis does not answer and rate limits count per process',
    registers: [metrics.registry],
    collect() {
      this.set(limiter.health() === 'ok' ? 0 : 1);
    },
  });
  new Gauge({
    name: 'rate_limit_local_fallback_hits',
    help: 'Requests counted in process because Redis did not answer (since start)',
    registers: [metrics.registry],
    collect() {
      this.set(limiter.fallbackHits);
    },
  });
  // The limiter keeps the count (the domain imports no prom-client); a scrape catches up on it.
  let reported = 0;
  new Counter({
    name: 'rate_limit_store_failures_total',
    help: 'Requests that waited on Redis and fell back: an error, or no answer within REDIS_TIMEOUT_MS',
    registers: [metrics.registry],
    collect() {
      this.inc(limiter.storeFailures - reported);
      reported = limiter.storeFailures;
    },
  });
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

/**
 * A national do-not-call list that is stale (or goes stale within a week)
 * blocks marketing touches: /readyz says so, counting organizations only,
 * since /readyz is on the public port. Which ones: the suppression metrics.
 */
export function suppressionListCheck(repos: Repositories, clock: Clock): ReadinessCheck {
  return {
    name: 'suppression_lists',
    async check() {
      const notes = await suppressionListNotes(repos, clock.now());
      if (notes.length === 0) return { status: 'ok' };
      const stale = notes.filter((n) => n.stale).length;
      const soon = notes.length - stale;
      const parts = [
        stale > 0 ? `${stale} organization(s) with a stale national do-not-call list` : '',
        soon > 0 ? `${soon} going stale within ${STALE_WARNING_DAYS} days` : '',
      ].filter(Boolean);
      return {
        status: stale > 0 ? 'degraded' : 'ok',
        detail: `${parts.join('; ')}: marketing touches below pewc are blocked once stale`,
      };
    },
  };
}

/** Destinations on an ad-platform API version that is retired, or will be within 60 days. */
export function apiVersionCheck(repos: Repositories, clock: Clock): ReadinessCheck {
  return {
    name: 'ad_platform_versions',
    // Uploads are not traffic: a check that cannot answer says so without pulling the process.
    unavailable: 'degraded',
    async check() {
      const rows = await repos.destinations.enabledPlatformSettings(repos.db);
      return versionReadiness(rows, new Date(clock.now()));
    },
  };
}

/** A webhook delivery worker (also used by src/worker.ts); stop() also closes its connections. */
export function createWebhookWorker(
  config: Config,
  deps: Pick<AppDeps, 'repos' | 'clock' | 'logger'> & Partial<Pick<AppDeps, 'metrics'>>,
): WebhookWorker {
  const w = config.webhooks;
  const sender = new WebhookSender({
    timeoutMs: w.timeoutMs,
    maxResponseBytes: w.responseBytes,
    allowPrivate: w.allowPrivateTargets,
  });
  const worker = new WebhookWorker(
    { ...deps, sender, logger: deps.logger.child({ component: 'webhooks' }) },
    {
      maxAttempts: w.maxAttempts,
      backoffBaseMs: w.backoffBaseMs,
      backoffMaxMs: w.backoffMaxMs,
      perEndpoint: w.perEndpointConcurrency,
      concurrency: w.concurrency,
      pollMs: config.workerPollMs,
      // Past the request deadline plus the time to record it; a worker killed mid-request
      // leaves a lease that runs out this long after, and another round sends the event again.
      leaseMs: 2 * w.timeoutMs + 5_000,
      disableAfterFailures: w.disableAfterFailures,
      disableAfterMs: w.disableAfterMs,
    },
  );
  const stop = worker.stop.bind(worker);
  worker.stop = async () => {
    await stop();
    sender.close();
  };
  return worker;
}

/** Everything the apps depend on, opened in order and closed in reverse. */
export async function openRuntime(config: Config, logger: Logger, clock: Clock): Promise<Runtime> {
  const store = await openConfiguredStore(config, config.databasePoolSize, logger);
  const wired = wireStore(store, clock, {
    connections: config.dniBatchConnections,
    maxSize: config.dniBatchMax,
  });
  const { repos, queries, sessions, ringing, metrics, ping, storeFailure } = wired;
  const conversions = await openConversions(config, repos, logger);
  const keyring = new Keyring();
  const sync = await startKeyringSync(store, keyring, config.authRefreshMs, logger);
  const { limiter, readiness } = openLimiter(config, store, logger);
  if (limiter instanceof FailOpenRateLimiter) limiterMetrics(metrics, limiter);
  readiness.push(suppressionListCheck(repos, clock));
  readiness.push(apiVersionCheck(repos, clock));
  warnOnTableCoverage(logger, clock.now());
  const worker = config.worker ? createWorker(config, { repos, clock, logger, metrics }) : null;
  const rnd = createRndRefresher(config, { repos, clock, logger });
  // The schedule runs where the dispatch worker runs; grants trigger a check in any process.
  if (config.worker) rnd?.start();
  const webhookWorker = config.worker
    ? createWebhookWorker(config, { repos, clock, logger, metrics })
    : null;
  const uploadWorker = config.worker
    ? createUploadWorker(config, { repos, clock, logger, metrics }, conversions)
    : null;
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
    repos,
    queries,
    ping,
    storeFailure,
    keyring,
    limiter,
    clock,
    metrics,
    logger,
    twilio: { authToken: config.twilioAuthToken, publicBaseUrl: config.publicBaseUrl },
    readiness,
    readinessTimeoutMs: config.readinessTimeoutMs,
    webhooks: config.webhooks,
    conversions,
    console: config.console,
    sessions,
    ringing,
    worker,
    webhookWorker,
    uploadWorker,
    rnd: rnd ?? undefined,
    async close() {
      await rnd?.stop();
      await Promise.all([worker?.stop(), webhookWorker?.stop(), uploadWorker?.stop()]);
      sync.stop();
      await limiter.close();
      await store.close();
    },
  };
}
