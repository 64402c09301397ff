import { buildAdminApp, buildApp, systemClock } from './app.js';
import { loadConfigOrExit, resolveAdminToken } from './config.js';
import { createLogger } from './logger.js';
import { openRuntime } from './runtime.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel);
  const runtime = await openRuntime(config, logger, systemClock);
  const adminToken = resolveAdminToken(config, true)!;
  const api = await buildApp(runtime);
  const admin = await buildAdminApp(runtime, adminToken);
  await api.listen({ port: config.port, host: config.host });
  await admin.listen({ port: config.adminPort, host: config.adminHost });
  runtime.worker?.start();
  runtime.webhookWorker?.start();
  if (!config.adminToken) {
    logger.info(
      { file: `${config.dataDir}/admin-token` },
      'admin token kept in DATA_DIR/admin-token',
    );
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing requests in flight');
    const force = setTimeout(() => {
      logger.error('shutdown took over 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await Promise.all([api.close(), admin.close()]);
      await runtime.close();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(
    `failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  process.exit(1);
});
