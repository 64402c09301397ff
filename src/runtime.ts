import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { AppDeps, Clock } from './app.js';
import type { Config } from './config.js';
import { Keyring } from './domain/auth/keyring.js';
import {
  MemoryRateLimiter,
  type RateLimiter,
  RedisRateLimiter,
} from './domain/rate-limit/limiter.js';
import { createMetrics } from './http/metrics.js';
import { openStore } from './store/db.js';
import { poolUsage } from './store/repos/dni.js';
import { startKeyringSync } from './store/repos/keyring-sync.js';

export interface Runtime extends AppDeps {
  close(): Promise<void>;
}

/** Everything the apps depend on, opened in order and closed in reverse. */
export async function openRuntime(config: Config, logger: Logger, clock: Clock): Promise<Runtime> {
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    poolSize: config.databasePoolSize,
    pgliteSharedBuffers: config.pgliteSharedBuffers,
  });
  await store.migrate();
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
  logger.info(
    { store: store.kind, limiter: config.redisUrl ? 'redis' : 'memory' },
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
    async close() {
      sync.stop();
      await limiter.close();
      await store.close();
    },
  };
}
