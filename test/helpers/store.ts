import { cpSync, mkdtempSync, openAsBlob } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { inject, it } from 'vitest';
import { openStore, type Store, type StoreOptions } from '../../src/store/db.js';
import { type ScratchDatabase, scratchDatabase, workerDatabasePrefix } from './scratch-database.js';

export { type ScratchDatabase, scratchDatabase } from './scratch-database.js';

export type TestStoreKind = 'pglite' | 'postgres';

/** Which store this vitest project runs against (see vitest.config.ts). */
export const storeKind: TestStoreKind =
  process.env.TEST_STORE === 'postgres' ? 'postgres' : 'pglite';

export interface TestStore extends Store {
  /** Another connection pool on the same database, as a second process would have. */
  reopen(): Promise<Store>;
  /** PostgreSQL only: the test database's URL, for raw connections outside the store. */
  url?: string;
}

/**
 * A fresh, migrated database of its own: an in-memory PGlite loaded from the
 * run's migrated image, or a copy of the run's template database on
 * TEST_DATABASE_URL that is dropped on close (test/helpers/global-setup.ts).
 * `migrate()` finds nothing to do on either, as a restarted server would.
 * Most files share their worker's instead (openWorkerStore).
 */
export function openTestStore(
  options: Pick<StoreOptions, 'sqlDir' | 'migrationsDir'> = {},
): Promise<TestStore> {
  return openCopy('tracking_test', options);
}

/**
 * A new DATA_DIR (under the system's temporary directory, named `prefix`-…)
 * holding a copy of the run's migrated embedded store: a server started on it
 * finds its store migrated, as a restarted server would, instead of spending
 * its first start on initdb and every migration. The caller removes it.
 */
export function migratedDataDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  cpSync(inject('pgliteDataDir'), dir, { recursive: true });
  return dir;
}

/**
 * A new database on TEST_DATABASE_URL, named `prefix`_…, copied from the run's
 * migrated template: for server processes, which then migrate nothing. The
 * caller drops it.
 */
export function migratedDatabase(prefix: string): Promise<ScratchDatabase> {
  return scratchDatabase(prefix, inject('postgresTemplate'));
}

let workerStore: Promise<TestStore> | undefined;

/**
 * The database of this worker process, opened by the first file that asks and
 * shared by every file it runs after: with `isolate: false` a worker keeps its
 * modules, so this one, from file to file (vitest.config.ts), and vitest starts
 * new workers for each project, so a worker sees one store kind. Tests make
 * their own tenant on it (createTenant); a file that needs the whole database
 * asks for a private one (`useHarness({ privateDatabase: 'why' })`). Files
 * cannot close it: it ends with the worker process (PGlite, in memory) or the
 * run's global teardown drops it (PostgreSQL).
 */
export function openWorkerStore(): Promise<TestStore> {
  workerStore ??= openCopy(workerDatabasePrefix(inject('postgresTemplate'))).then(
    (store) => ({ ...store, close: async () => {} }),
    (error) => {
      workerStore = undefined;
      throw error;
    },
  );
  return workerStore;
}

/** A migrated copy of the run's database; on PostgreSQL one named `prefix`_…, dropped on close. */
async function openCopy(
  prefix: string,
  options: Pick<StoreOptions, 'sqlDir' | 'migrationsDir'> = {},
): Promise<TestStore> {
  if (storeKind === 'pglite') {
    const store = await openStore({
      ...options,
      pgliteImage: await openAsBlob(inject('pgliteImage')),
    });
    await store.migrate();
    return {
      ...store,
      reopen: async () => ({ ...store, close: async () => {} }),
    };
  }
  const scratch = await scratchDatabase(prefix, inject('postgresTemplate'));
  const open = () => openStore({ ...options, databaseUrl: scratch.url, poolSize: 8 });
  const store = await open();
  await store.migrate();
  return {
    ...store,
    reopen: open,
    url: scratch.url,
    async close() {
      await store.close();
      await scratch.drop();
    },
  };
}

/**
 * A test whose point is concurrency. PGlite runs one query at a time, so there
 * such a test could not fail: it runs on PostgreSQL and is skipped, with the
 * reason in its name, on the embedded store.
 */
export function itConcurrently(name: string, fn: () => Promise<void>, timeout?: number): void {
  const onPglite = storeKind === 'pglite';
  it.skipIf(onPglite)(
    onPglite ? `${name} [skipped: concurrency, PostgreSQL only; PGlite serialises queries]` : name,
    fn,
    timeout,
  );
}

/**
 * Resolves once the backend `pid` waits on a lock (a state, not a time), asked through
 * `watcher`, another connection; fails after 500 looks 10 ms apart.
 */
export async function untilWaitingOnLock(watcher: pg.Client, pid: number): Promise<void> {
  for (let i = 0; i < 500; i++) {
    const w = await watcher.query(
      "select 1 from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'",
      [pid],
    );
    if (w.rowCount) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`backend ${pid} never waited on a lock`);
}
