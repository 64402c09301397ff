import { loadConfig } from '../config.js';
import { openStore } from './db.js';

/** `npm run migrate`: applies the committed migrations to DATABASE_URL or DATA_DIR. */
const config = loadConfig();
const store = await openStore({
  databaseUrl: config.databaseUrl,
  dataDir: config.databaseUrl ? undefined : config.dataDir,
  pgliteSharedBuffers: config.pgliteSharedBuffers,
});
await store.migrate();
await store.close();
process.stdout.write(`migrations applied (${store.kind})\n`);
