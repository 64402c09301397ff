import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type {
  PgDatabase,
  PgQueryResultHKT,
  PgTransaction,
  PgTransactionConfig,
} from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Executor as Handle, Transaction } from '../domain/ports.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { classifyStoreError, retryTransient } from './errors.js';
import { appliedMigrations, assertAppliable } from './migrate-journal.js';
import * as schema from './schema/index.js';
import { applySqlFiles, readSqlFiles, SQL_DIR, type SqlSession } from './sql-files.js';

type Schema = typeof schema;
/**
 * The store's handles carry the domain's brands (src/domain/ports.ts; in types only), so a
 * repository function written over them fits the domain's port as it is, with no cast: the
 * domain hands back the very object the store gave it. The brand is put on once, where the
 * database is opened.
 */
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>> &
  Transaction;
export type Db = Omit<PgDatabase<PgQueryResultHKT, Schema>, 'transaction'> &
  Handle & {
    transaction<T>(fn: (tx: Tx) => Promise<T>, config?: PgTransactionConfig): Promise<T>;
  };
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
  /** Embedded store only: its whole data directory as a tarball (`StoreOptions.pgliteImage`). */
  image?(): Promise<Blob>;
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
  /**
   * Embedded store only: start from this data directory image (from `image()`)
   * instead of an empty cluster. Skips initdb: the test suites open each
   * database from one migrated image.
   */
  pgliteImage?: Blob;
  /** How long a new PostgreSQL connection may take before the request fails. */
  connectTimeoutMs?: number;
  /** How long a request waits for a free connection when all are busy before it fails. */
  queueTimeoutMs?: number;
  /** The stored functions' files (src/store/sql): a test points this at an edited copy. */
  sqlDir?: string;
  /** The numbered migrations and their journal: a test points this at an edited copy. */
  migrationsDir?: string;
  /**
   * Embedded store only: told the text of every statement sent (parameters apart), for the
   * committed SQL snapshots (test/http/sql-snapshots.test.ts).
   */
  onStatement?: (text: string) => void;
  /** A pooled connection failed outside any query (its backend was terminated). */
  onConnectionError?: (err: Error) => void;
}

// Serialise concurrent migrators on one PostgreSQL database.
const MIGRATION_LOCK = 7_350_001;

/** Dates travel as ISO strings, the same text on both drivers. */
export function wire(params: readonly unknown[]): unknown[] {
  return params.map((p) => (p instanceof Date ? p.toISOString() : p));
}

export async function openStore(options: StoreOptions): Promise<Store> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  return openPglite(options);
}

/**
 * Deadlocks and serialization failures roll a transaction back whole, and a
 * Drizzle transaction callback only talks to the database: run it again.
 */
function retryingTransactions(db: Db): Db {
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn, config) =>
    retryTransient(() => transaction(fn, config))) as Db['transaction'];
  return db;
}

// A statement's name for the server-side prepared-statement cache, per text.
const statementNames = new Map<string, string>();
export function statementName(text: string): string {
  let name = statementNames.get(text);
  if (!name) {
    name = `s${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
}

/**
 * Transactions on a client we check out and always give back. Drizzle's own
 * (0.45) sends BEGIN before its try/finally: when the connection was killed
 * while idle in the pool, BEGIN fails and the client is never released. After
 * as many failovers as the pool has clients, every request would wait for a
 * client until its connect timeout: 503 until a restart.
 */
function pooledTransactions(pool: pg.Pool): Db['transaction'] {
  // One Drizzle database per pooled client (building one reads the schema).
  const onClient = new WeakMap<pg.PoolClient, Db>();
  const once = async (...args: Parameters<Db['transaction']>) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      let db = onClient.get(client);
      if (!db) {
        db = drizzlePostgres(client, { schema }) as unknown as Db;
        onClient.set(client, db);
      }
      return await db.transaction(...args);
    } catch (err) {
      // A connection that failed is closed, not handed to the next request.
      if (classifyStoreError(err) === 'unavailable') broken = err as Error;
      throw err;
    } finally {
      client.release(broken);
    }
  };
  return ((fn, config) => retryTransient(() => once(fn, config))) as Db['transaction'];
}

/**
 * Settings of the service's own sessions. JIT is off: PostgreSQL compiles a
 * plan whose estimated cost passes jit_above_cost (100,000) to machine code
 * first, and the report statements over the rollups pass it: 350 ms of
 * compiling for a 30-day traffic report that runs in less (bench/README.md,
 * "Reports"). Nothing the service runs is long enough to win that back. An
 * `options` parameter in DATABASE_URL replaces these (node-postgres lets the
 * URL win), so an operator who sets one says `-c jit=off` there too.
 */
const SESSION_OPTIONS = '-c jit=off';

/** Marks a transaction's opening statement: see DeferredBeginClient. */
export const OPENS_TRANSACTION = Symbol('opens a transaction');
/** Marks a transaction's closing statement: see DeferredBeginClient. */
export const CLOSES_TRANSACTION = Symbol('closes a transaction');

const done = (command: string) =>
  Promise.resolve({ command, rowCount: null, oid: 0, rows: [], fields: [] });

/**
 * A client whose transaction's `begin` goes out with the transaction's opening statement, and
 * whose `commit` with its closing statement, when that statement is plain text marked
 * OPENS_TRANSACTION or CLOSES_TRANSACTION (openingRowSets and closingRows, src/store/rows.ts):
 * they travel as one simple query, `begin;<text>` or `<text>;commit`, one round trip where they
 * were two. A carrier webhook opens each of its transactions so, with the lock of its call, and
 * a voice webhook closes its batch's so, with the calls' first offers (docs/routing.md, "A
 * whole call").
 *
 * - Any other first statement goes after its own `begin`, in order (a client sends its queries
 *   one after another), as before; a transaction that sent nothing ends with nothing sent. Only
 *   Drizzle's plain `begin` is held back (one with options, a savepoint, are not).
 * - A closing statement that fails has run no `commit` (a simple query stops at its first
 *   error): Drizzle's rollback goes out as usual. Once it succeeded the transaction is
 *   committed: Drizzle's `commit` (or its `rollback`, after a throw that came later) sends
 *   nothing, and any other statement fails, loudly, rather than run outside the transaction.
 */
class DeferredBeginClient extends pg.Client {
  /** held: a `begin` not sent yet; closed: committed by its closing statement. */
  #state: 'none' | 'held' | 'closed' = 'none';

  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this passes them all on.
  override query(...args: any[]): any {
    const send = (...a: unknown[]) => (super.query as (...x: unknown[]) => unknown).apply(this, a);
    const [q, values] = args;
    const text: unknown = typeof q === 'string' ? q : q?.text;
    const plain =
      typeof text === 'string' &&
      !q?.name &&
      args.length <= 2 &&
      (values === undefined || (Array.isArray(values) && values.length === 0));
    const ends = plain && (text === 'commit' || text === 'rollback');
    const state = this.#state;
    this.#state = 'none';
    if (state === 'closed') {
      if (ends) return done((text as string).toUpperCase());
      return Promise.reject(
        new Error('a statement after its transaction was committed by its closing statement'),
      );
    }
    const closes = plain && q?.[CLOSES_TRANSACTION] === true;
    if (state === 'none') {
      if (plain && text === 'begin') {
        this.#state = 'held';
        return done('BEGIN');
      }
      if (closes) return this.#close(send(`${text};commit`), 0);
      return send(...args);
    }
    if (ends) return done((text as string).toUpperCase());
    if (closes) return this.#close(send(`begin;${text};commit`), 1);
    if (plain && q?.[OPENS_TRANSACTION]) {
      // The results of the opening's statements, without the begin's: one, or an array of them.
      return (send(`begin;${text}`) as Promise<pg.QueryResult[]>).then((r) =>
        r.length === 2 ? r[1] : r.slice(1),
      );
    }
    // Its failure is the next query's: a connection that broke fails it as well.
    (send('begin') as Promise<unknown>).catch(() => {});
    return send(...args);
  }

  /** The closing statement's results, without the begin's (`skip`) and the commit's. */
  #close(sent: unknown, skip: number): Promise<pg.QueryResult | pg.QueryResult[]> {
    return (sent as Promise<pg.QueryResult[]>).then((r) => {
      this.#state = 'closed';
      const rest = r.slice(skip, -1);
      return rest.length === 1 ? rest[0]! : rest;
    });
  }
}

/**
 * The pool of openPostgres, with the service's session settings, its two timeouts and a
 * listener for every connection error.
 */
function createPool(url: string, options: StoreOptions): pg.Pool {
  const connectTimeoutMs = options.connectTimeoutMs ?? 3_000;
  // node-postgres's pool uses one timeout for two waits: for a free client when all are busy,
  // and for a new connection. A busy pool is load, not an outage: a burst of carrier webhooks
  // queues for up to queueTimeoutMs (Twilio waits 15 s for a voice webhook and does not retry
  // it). A database that does not answer still fails the request after connectTimeoutMs (503):
  // each client's own connect carries that shorter timeout.
  class Client extends DeferredBeginClient {
    constructor(config?: string | pg.ClientConfig) {
      super({
        ...(typeof config === 'string' ? { connectionString: config } : config),
        connectionTimeoutMillis: connectTimeoutMs,
      });
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    options: SESSION_OPTIONS,
    max: options.poolSize ?? 16,
    Client,
    connectionTimeoutMillis: Math.max(options.queueTimeoutMs ?? 10_000, connectTimeoutMs),
    idleTimeoutMillis: 30_000,
  });
  const onError = options.onConnectionError ?? (() => {});
  // An idle client whose backend went away: the pool drops it; we only note it.
  pool.on('error', onError);
  // A checked-out client between two queries has no listener of the pool's:
  // without this one, its connection error would be an uncaught exception.
  pool.on('connect', (client) => client.on('error', onError));
  return pool;
}

/**
 * PostgreSQL through node-postgres. postgres.js 3.4.9 crashes the process when
 * a backend is terminated under load (porsager/postgres#1154, #1208): a write
 * scheduled on a socket that closed meanwhile throws outside every promise.
 * node-postgres fails the query instead, drops the broken client from the
 * pool, and opens a new one for the next request.
 */
async function openPostgres(url: string, options: StoreOptions): Promise<Store> {
  const pool = createPool(url, options);
  const db = drizzlePostgres(pool, { schema }) as unknown as Db;
  db.transaction = pooledTransactions(pool);
  return {
    kind: 'postgres',
    db,
    async query<T extends Record<string, unknown>>(text: string, params: unknown[]) {
      // One statement is its own transaction: after a deadlock it is safe to send again.
      const result = await retryTransient(() =>
        pool.query<T>({ name: statementName(text), text, values: wire(params) }),
      );
      return result.rows;
    },
    async migrate() {
      const files = readSqlFiles(options.sqlDir ?? SQL_DIR);
      // A session lock on one client; the migrator runs on the pool, the stored functions on
      // the locked client.
      const lock = await pool.connect();
      try {
        await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
        const migrationsFolder = options.migrationsDir ?? MIGRATIONS_DIR;
        assertAppliable(
          migrationsFolder,
          await appliedMigrations(async (text) => (await lock.query(text)).rows),
        );
        await migratePostgres(db as never, { migrationsFolder });
        await applySqlFiles(async (fn) => {
          const session: SqlSession = {
            query: async (text, params) => (await lock.query(text, params)).rows,
            exec: async (text) => void (await lock.query(text)),
          };
          await lock.query('begin');
          try {
            await fn(session);
            await lock.query('commit');
          } catch (err) {
            await lock.query('rollback').catch(() => {});
            throw err;
          }
        }, files);
      } finally {
        await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        lock.release();
      }
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      await pool.end();
    },
  };
}

async function openPglite(options: StoreOptions): Promise<Store> {
  let lock: DataDirLock | null = null;
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    lock = acquireDataDirLock(options.dataDir);
  }
  let lite: PGlite;
  try {
    lite = await PGlite.create({
      ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      ...(options.pgliteImage ? { loadDataDir: options.pgliteImage } : {}),
      postgresqlconf: [`shared_buffers=${options.pgliteSharedBuffers ?? '16MB'}`],
    });
  } catch (err) {
    lock?.release();
    throw err;
  }
  const onStatement = options.onStatement;
  const logger = onStatement && { logQuery: (text: string) => onStatement(text) };
  const db = retryingTransactions(
    drizzlePglite(lite, { schema, ...(logger ? { logger } : {}) }) as unknown as Db,
  );
  return {
    kind: 'pglite',
    db,
    async query<T extends Record<string, unknown>>(text: string, params: unknown[]) {
      onStatement?.(text);
      return (await lite.query<T>(text, wire(params))).rows;
    },
    async migrate() {
      const files = readSqlFiles(options.sqlDir ?? SQL_DIR);
      const migrationsFolder = options.migrationsDir ?? MIGRATIONS_DIR;
      assertAppliable(
        migrationsFolder,
        await appliedMigrations(async (text) => (await lite.query(text)).rows as never),
      );
      await migratePglite(drizzlePglite(lite, { schema }), { migrationsFolder });
      await applySqlFiles(
        (fn) =>
          lite.transaction(async (tx) => {
            await fn({
              query: async (text, params) => (await tx.query(text, params)).rows as never,
              exec: async (text) => void (await tx.exec(text)),
            });
          }),
        files,
      );
    },
    async ping() {
      await lite.query('select 1');
    },
    async image() {
      return await lite.dumpDataDir('none');
    },
    async close() {
      try {
        await lite.close();
      } finally {
        lock?.release();
      }
    },
  };
}
