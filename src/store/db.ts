import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import * as schema from './schema.js';

type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or a transaction: repository functions accept both. */
export type Executor = Db | Tx;

export type StoreKind = 'pglite' | 'postgres';

export interface Store {
  readonly kind: StoreKind;
  readonly db: Db;
  /** Raw parameterised SQL for the hot path: one round trip, rows as objects. */
  query<T extends Record<string, unknown>>(text: string, params: unknown[]): Promise<T[]>;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const here = dirname(fileURLToPath(import.meta.url));
/** The committed SQL migrations: two levels up from src/store, three from dist/src/store. */
export const MIGRATIONS_DIR = [
  join(here, '../../migrations'),
  join(here, '../../../migrations'),
].find((d) => existsSync(join(d, 'meta/_journal.json'))) as string;

export interface StoreOptions {
  databaseUrl?: string | undefined;
  /** PGlite data directory; undefined keeps the embedded database in memory (tests). */
  dataDir?: string | undefined;
  poolSize?: number;
  pgliteSharedBuffers?: string;
}

// Serialise concurrent migrators on one PostgreSQL database.
const MIGRATION_LOCK = 7_350_001;

/** Dates travel as ISO strings: postgres.js cannot infer their type for unsafe queries. */
function wire(params: unknown[]): never[] {
  return params.map((p) => (p instanceof Date ? p.toISOString() : p)) as never[];
}

export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return openPglite(options);
}

async function openPostgres(url: string, options: StoreOptions): Promise<Store> {
  const client = postgres(url, {
    max: options.poolSize ?? 16,
    onnotice: () => {},
  });
  const db = drizzlePostgres(client, { schema }) as unknown as Db;
  return {
    kind: 'postgres',
    db,
    async query<T extends Record<string, unknown>>(text: string, params: unknown[]) {
      return (await client.unsafe(text, wire(params), { prepare: true })) as unknown as T[];
    },
    async migrate() {
      // A session lock on a reserved connection; the migrator runs on the pool.
      const lock = await client.reserve();
      try {
        await lock`select pg_advisory_lock(${MIGRATION_LOCK})`;
        await migratePostgres(db as never, { migrationsFolder: MIGRATIONS_DIR });
      } finally {
        await lock`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {});
        lock.release();
      }
    },
    async ping() {
      await client`select 1`;
    },
    async close() {
      await client.end({ timeout: 5 });
    },
  };
}

async function openPglite(options: StoreOptions): Promise<Store> {
  let lock: DataDirLock | null = null;
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    lock = acquireDataDirLock(options.dataDir);
  }
  let pg: PGlite;
  try {
    pg = await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      postgresqlconf: [`shared_buffers=${options.pgliteSharedBuffers ?? '16MB'}`],
    });
  } catch (err) {
    lock?.release();
    throw err;
  }
  const db = drizzlePglite(pg, { schema }) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    async query<T extends Record<string, unknown>>(text: string, params: unknown[]) {
      return (await pg.query<T>(text, wire(params))).rows;
    },
    async migrate() {
      await migratePglite(drizzlePglite(pg, { schema }), { migrationsFolder: MIGRATIONS_DIR });
    },
    async ping() {
      await pg.query('select 1');
    },
    async close() {
      try {
        await pg.close();
      } finally {
        lock?.release();
      }
    },
  };
}
