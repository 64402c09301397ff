import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AppDeps, Clock } from './app.js';
import type { Config } from './config.js';
import { Keyring } from './domain/auth/keyring.js';
import { createCarrier } from './domain/outbound/carriers/index.js';
import { DispatchWorker } from './domain/outbound/dispatch/worker.js';
import {
  MemoryRateLimiter,
  type RateLimiter,
  RedisRateLimiter,
} from './domain/rate-limit/limiter.js';
import { WebhookSender } from './domain/webhooks/sender.js';
import { WebhookWorker } from './domain/webhooks/worker.js';
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

export interface Runtime extends AppDeps {
  /** The dispatch worker, not yet started; null with WORKER=0. */
  worker: DispatchWorker | null;
  /** The webhook delivery worker, not yet started; null with WORKER=0. */
  webhookWorker: WebhookWorker | null;
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

/** A webhook delivery worker (also used by src/worker.ts); stop() also closes its connections. */
export function createWebhookWorker(
  config: Config,
  deps: Pick<AppDeps, 'store' | 'clock' | 'logger'> & Partial<Pick<AppDeps, 'metrics'>>,
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
  const metrics = createMetrics(() => poolUsage(store, new Date(clock.now())));
  const worker = config.worker ? createWorker(config, { store, clock, logger, metrics }) : null;
  const webhookWorker = config.worker
    ? createWebhookWorker(config, { store, clock, logger, metrics })
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
    keyring,
    limiter,
    clock,
    metrics,
    logger,
    twilio: { authToken: config.twilioAuthToken, publicBaseUrl: config.publicBaseUrl },
    webhooks: config.webhooks,
    worker,
    webhookWorker,
    async close() {
      await Promise.all([worker?.stop(), webhookWorker?.stop()]);
      sync.stop();
      await limiter.close();
      await store.close();
    },
  };
}
