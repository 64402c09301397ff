import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../../src/app.js';
import { Keyring } from '../../src/domain/auth/keyring.js';
import type { Store } from '../../src/store/db.js';
import { startKeyringSync } from '../../src/store/repos/keyring-sync.js';
import { wireStore } from '../../src/wiring.js';
import { checkConformance } from './conformance.js';
import type { Harness } from './harness.js';

export interface SecondProcess {
  app: FastifyInstance;
  store: Store;
  close(): Promise<void>;
}

/**
 * A second API process on the harness's database: its own connection and keyring, refreshed
 * every `refreshMs`. `watch` sees the connection first (to count the queries it runs).
 */
export async function secondProcess(
  h: Harness,
  refreshMs: number,
  watch: (store: Store) => void = () => {},
): Promise<SecondProcess> {
  const store = await h.store.reopen();
  watch(store);
  const keyring = new Keyring();
  const sync = await startKeyringSync(store, keyring, refreshMs, pino({ level: 'silent' }));
  const app = await buildApp({
    ...h.deps,
    // A second process: everything over its own connection to the same database.
    ...wireStore(store, h.clock),
    keyring,
  });
  checkConformance(app, 'public');
  await app.ready();
  return {
    app,
    store,
    async close() {
      sync.stop();
      await app.close();
      await store.close();
    },
  };
}
