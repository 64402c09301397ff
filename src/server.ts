import { buildAdminApp, buildApp } from './app.js';
import { loadConfigOrExit, resolveAdminToken } from './config.js';
import { buildConsoleApp } from './console/app.js';
import { systemClock } from './deps.js';
import { createLogger } from './logger.js';
import { checkPortFree, listenAs } from './port-check.js';
import { openRuntime, type Runtime } from './runtime.js';
import { exitOnStartupFailure } from './startup-errors.js';
import { createRetention, type RetentionJob } from './workers/retention.js';

// Long on purpose: the process's start-up read top to bottom, with the shutdown it installs first
// sharing the apps it started.
async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger(config.logLevel, config.logFormat);
  let runtime: Runtime | undefined;
  let api: Awaited<ReturnType<typeof buildApp>> | undefined;
  let admin: Awaited<ReturnType<typeof buildAdminApp>> | undefined;
  let consoleApp: Awaited<ReturnType<typeof buildConsoleApp>> | undefined;
  let retention: RetentionJob | undefined;
  // Installed first: a signal during start-up still closes the store and frees DATA_DIR.
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
      await Promise.all([api?.close(), admin?.close(), consoleApp?.close()]);
      await retention?.stop();
      await runtime?.close();
      logger.info('stopped');
      process.exit(0);
    } catch (err) {
      logger.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    // Before the store: a port in use must not cost a new DATA_DIR (and its ~30 s first start).
    await checkPortFree(config.port, config.host, 'PORT');
    await checkPortFree(config.adminPort, config.adminHost, 'ADMIN_PORT');
    await checkPortFree(config.console.port, config.console.host, 'CONSOLE_PORT');
    runtime = await openRuntime(config, logger, systemClock);
    const adminToken = resolveAdminToken(config, true)!;
    const limits = {
      headersTimeoutMs: config.headersTimeoutMs,
      requestTimeoutMs: config.requestTimeoutMs,
      shutdownDrainMs: config.shutdownDrainMs,
    };
    api = await buildApp(runtime, limits);
    admin = await buildAdminApp(runtime, adminToken, config.metricsToken ?? adminToken, limits);
    // Two listeners: say which is which, and where their documents are.
    const [publicApp, adminApp] = [api, admin];
    await listenAs('PORT', () =>
      publicApp.listen({
        port: config.port,
        host: config.host,
        listenTextResolver: (url) => `public API listening at ${url} (docs ${url}/docs)`,
      }),
    );
    await listenAs('ADMIN_PORT', () =>
      adminApp.listen({
        port: config.adminPort,
        host: config.adminHost,
        listenTextResolver: (url) =>
          `admin API listening at ${url} (docs ${url}/admin/docs, CLI: npm run admin -- --help)`,
      }),
    );
    // The web console on its own listener (contract §9); CONSOLE_PORT=0 leaves it off.
    if (config.console.port !== 0) {
      const app = await buildConsoleApp({ ...runtime, console: config.console }, limits);
      consoleApp = app;
      await listenAs('CONSOLE_PORT', () =>
        app.listen({
          port: config.console.port,
          host: config.console.host,
          listenTextResolver: (url) => `web console listening at ${url} (docs/console.md)`,
        }),
      );
    }
  } catch (err) {
    if (closing) return;
    closing = true;
    await Promise.allSettled([api?.close(), admin?.close(), consoleApp?.close()]);
    await runtime?.close().catch(() => {});
    exitOnStartupFailure('failed to start', err, config);
  }
  if (closing) return;
  runtime.worker?.start();
  runtime.webhookWorker?.start();
  runtime.uploadWorker?.start();
  // Every API process runs it; the lease in the database lets one at a time work.
  retention = createRetention(config.retention, runtime);
  if (!config.adminToken) {
    logger.info(
      { file: `${config.dataDir}/admin-token` },
      'admin token kept in DATA_DIR/admin-token',
    );
  }
}

void main();
