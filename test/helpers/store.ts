import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { it } from 'vitest';
import { openStore, type Store } from '../../src/store/db.js';

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
 * A fresh, migrated database for one test file: an in-memory PGlite, or a
 * new schema on TEST_DATABASE_URL that is dropped on close.
 */
export async function openTestStore(): Promise<TestStore> {
  if (storeKind === 'pglite') {
    const store = await openStore({});
    await store.migrate();
    return {
      ...store,
      reopen: async () => ({ ...store, close: async () => {} }),
    };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_STORE=postgres needs TEST_DATABASE_URL');
  // A database per test file: isolation without touching the SQL migrations.
  const name = `tracking_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const open = () => openStore({ databaseUrl: dbUrl.toString(), poolSize: 8 });
  const store = await open();
  await store.migrate();
  return {
    ...store,
    reopen: open,
    url: dbUrl.toString(),
    async close() {
      await store.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
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
