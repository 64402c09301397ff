import { systemClock } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { createWorker } from './runtime.js';
import { openStore } from './store/db.js';

/**
 * A dispatch worker on its own (`npm run worker`), for deployments that run the API with
 * WORKER=0 or want more workers. On the embedded store only one process may open DATA_DIR, so
 * use it there only while the server is stopped; with PostgreSQL any number may run.
 */
async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    poolSize: Math.min(config.databasePoolSize, 4),
    pgliteSharedBuffers: config.pgliteSharedBuffers,
  });
  await store.migrate();
  const worker = createWorker(config, { store, clock: systemClock, logger });
  worker.start();
  logger.info(
    { carrier: config.carrier, worker: worker.options.workerId },
    'dispatch worker started',
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'worker stopping after the round in progress');
    await worker.stop();
    await store.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(
    `worker failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
