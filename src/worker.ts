import { loadConfigOrExit } from './config.js';
import { systemClock } from './deps.js';
import { createLogger } from './logger.js';
import { createWebhookWorker, createWorker, openConfiguredStore } from './runtime.js';
import { exitOnStartupFailure } from './startup-errors.js';
import { createRepositories } from './store/repos/index.js';

/**
 * A dispatch worker and a webhook delivery worker on their own (`npm run worker`), for deployments that run the API with
 * WORKER=0 or want more workers. On the embedded store the server runs the worker itself and
 * holds DATA_DIR, so this refuses to start beside it; with PostgreSQL any number may run.
 */
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel, config.logFormat);
  const store = await openConfiguredStore(
    config,
    Math.min(config.databasePoolSize, 4),
    logger,
  ).catch((err: unknown) => exitOnStartupFailure('worker failed to start', err, config));
  const repos = createRepositories(store);
  const worker = createWorker(config, { repos, clock: systemClock, logger });
  const webhooks = createWebhookWorker(config, { repos, clock: systemClock, logger });
  worker.start();
  webhooks.start();
  logger.info(
    { carrier: config.carrier, worker: worker.options.workerId },
    'dispatch worker started',
  );

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'worker stopping after the round in progress');
    await Promise.all([worker.stop(), webhooks.stop()]);
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
