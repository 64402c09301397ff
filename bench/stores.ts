import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStore } from '../src/store/db.js';

/** A store the rows run against: the env its children get, and how to remove it. */
export interface StoreTarget {
  kind: 'pglite' | 'postgres';
  /** DATA_DIR or DATABASE_URL, read by the children through loadConfig. */
  env: Record<string, string>;
  version: string;
  /**
   * CPU time (µs) the database server has spent on this bench's database so
   * far, when it runs on this machine (PostgreSQL backends read from /proc);
   * null when unknown. PGlite's CPU is the child's own.
   */
  serverCpuMicros(): Promise<number | null>;
  /** PostgreSQL: what the server wrote for this database so far (pg_stat_*); null for PGlite. */
  writes(): Promise<Writes | null>;
  /** Fresh statistics on every table (ANALYZE). */
  analyze(): Promise<void>;
  cleanup(): Promise<void>;
}

/** Cumulative write counters of one database: tuples by pg_stat_user_tables, WAL for the whole cluster. */
export interface Writes {
  inserted: number;
  updated: number;
  hotUpdated: number;
  deadLeft: number;
  /** Index entries written: inserts and non-HOT updates times each table's index count. */
  indexEntries: number;
  /** pg_current_wal_lsn(): the whole cluster's WAL, so other databases' work counts too. */
  walBytes: number;
}

async function serverVersion(env: Record<string, string>): Promise<string> {
  const store = await openStore({
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR,
  });
  try {
    const [row] = await store.query<{ v: string }>('select version() as v', []);
    return (row?.v ?? 'unknown').split(' on ')[0]!;
  } finally {
    await store.close();
  }
}

/** The embedded store in a fresh temporary DATA_DIR, as `npm start` without DATABASE_URL uses it. */
export async function pgliteTarget(): Promise<StoreTarget> {
  const dir = mkdtempSync(join(tmpdir(), 'tracking-bench-'));
  // Empty values mask any DATABASE_URL / REDIS_URL the shell exports.
  const env = { DATA_DIR: dir, DATABASE_URL: '', REDIS_URL: '' };
  const pkg = JSON.parse(
    readFileSync(
      join(import.meta.dirname, '../node_modules/@electric-sql/pglite/package.json'),
      'utf8',
    ),
  ) as { version: string };
  const version = `PGlite ${pkg.version} (${await serverVersion(env)})`;
  return {
    kind: 'pglite',
    env,
    version,
    serverCpuMicros: async () => null,
    writes: async () => null,
    analyze: async () => {
      const store = await openStore({ dataDir: dir });
      try {
        await store.query('analyze', []);
      } finally {
        await store.close();
      }
    },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
let ticksPerSecond: number | null = null;

/** utime + stime of a process on this machine, from /proc/<pid>/stat. */
export function processCpuMicros(pid: number): number | null {
  try {
    ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) / ticksPerSecond) * 1e6;
  } catch {
    return null;
  }
}

/** A fresh database on the server at `url`, dropped by cleanup; a string when the server is unreachable. */
export async function postgresTarget(url: string): Promise<StoreTarget | string> {
  const admin = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  const name = `tracking_bench_${randomBytes(6).toString('hex')}`;
  try {
    await admin.connect();
    await admin.query(`create database ${name}`);
  } catch (err) {
    await admin.end().catch(() => {});
    return `PostgreSQL skipped: ${url.replace(/\/\/[^@]*@/, '//…@')} unreachable (${err instanceof Error ? err.message : String(err)})`;
  }
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const env = { DATABASE_URL: dbUrl.toString(), REDIS_URL: '' };
  return {
    kind: 'postgres',
    env,
    version: await serverVersion(env),
    async serverCpuMicros() {
      if (!LOCAL_HOSTS.has(dbUrl.hostname)) return null;
      const { rows: pids } = await admin.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = $1',
        [name],
      );
      // Backends that exited between two readings are lost: the pool keeps its connections open.
      return pids.reduce((sum, { pid }) => sum + (processCpuMicros(pid) ?? 0), 0);
    },
    async writes() {
      const db = new pg.Client({ connectionString: dbUrl.toString() });
      await db.connect();
      try {
        const { rows } = await db.query<Record<string, string>>(
          `select coalesce(sum(n_tup_ins), 0) ins, coalesce(sum(n_tup_upd), 0) upd,
                  coalesce(sum(n_tup_hot_upd), 0) hot, coalesce(sum(n_dead_tup), 0) dead,
                  coalesce(sum((n_tup_ins + n_tup_upd - n_tup_hot_upd)
                    * (select count(*) from pg_index i where i.indrelid = t.relid)), 0) idx,
                  pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') wal
             from pg_stat_user_tables t`,
        );
        const r = rows[0]!;
        return {
          inserted: Number(r.ins),
          updated: Number(r.upd),
          hotUpdated: Number(r.hot),
          deadLeft: Number(r.dead),
          indexEntries: Number(r.idx),
          walBytes: Number(r.wal),
        };
      } finally {
        await db.end();
      }
    },
    async analyze() {
      const db = new pg.Client({ connectionString: dbUrl.toString() });
      await db.connect();
      await db.query('analyze').finally(() => db.end());
    },
    async cleanup() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
