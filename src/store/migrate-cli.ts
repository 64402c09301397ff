import { loadConfigOrExit } from '../config.js';
import { exitOnStartupFailure } from '../startup-errors.js';
import { openStore } from './db.js';

/**
 * `npm run migrate`: applies the committed migrations to DATABASE_URL or
 * DATA_DIR. PostgreSQL: under an advisory lock, so it may run beside servers;
 * DATA_DIR: refused while a server holds the directory (it migrates at start).
 */
const config = loadConfigOrExit();
try {
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    pgliteSharedBuffers: config.pgliteSharedBuffers,
  });
  try {
    await store.migrate();
  } finally {
    await store.close();
  }
  process.stdout.write(`migrations applied (${store.kind})\n`);
} catch (err) {
  exitOnStartupFailure('migrate failed', err, config);
}
