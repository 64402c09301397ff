import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The stored functions and triggers, one file each (src/store/sql/<function>.sql), holding
 * the one current text: `CREATE OR REPLACE FUNCTION …` and the `CREATE OR REPLACE TRIGGER`
 * statements that call it. `migrate()` applies them after the numbered migrations, so a
 * function is changed by editing its file, never by a new migration (docs/architecture.md).
 * The build copies the folder beside the compiled module (scripts/ensure-build.mjs).
 */
export const SQL_DIR = join(dirname(fileURLToPath(import.meta.url)), 'sql');

export interface SqlFile {
  name: string;
  text: string;
  sha256: string;
}

/** The files in name order: the order they are applied in, the same on every start. */
export function readSqlFiles(dir: string = SQL_DIR): SqlFile[] {
  if (!existsSync(dir)) throw new Error(`stored functions not found: ${dir} (run npm run build)`);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => {
      const text = readFileSync(join(dir, name), 'utf8');
      return { name, text, sha256: createHash('sha256').update(text).digest('hex') };
    });
}

/** One connection of either store, inside the transaction `applySqlFiles` opens. */
export interface SqlSession {
  query<T extends Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /** Several statements in one text (the simple query protocol). */
  exec(text: string): Promise<void>;
}

// Beside the numbered migrations' bookkeeping (drizzle.__drizzle_migrations).
const LEDGER = 'drizzle.__sql_files';

/**
 * Applies the files whose text changed since they were last applied, in one transaction.
 * After a numbered migration every file is applied again: a migration may have dropped or
 * redefined a function (to change its signature), and the files are the current text.
 * A start with nothing new only reads the ledger (a few milliseconds) and replaces nothing:
 * no plan cache is invalidated and no table is locked (CREATE OR REPLACE TRIGGER would lock
 * its table against writers). Function bodies are checked when called,
 * not when created (check_function_bodies off, as pg_restore does), so a file may call a
 * function whose file sorts after it.
 */
export async function applySqlFiles(
  transaction: (fn: (s: SqlSession) => Promise<void>) => Promise<void>,
  files: SqlFile[],
): Promise<string[]> {
  let applied: string[] = [];
  await transaction(async (s) => {
    await s.exec(
      `CREATE SCHEMA IF NOT EXISTS drizzle;
       CREATE TABLE IF NOT EXISTS ${LEDGER} (
         name text PRIMARY KEY, sha256 text NOT NULL, migration bigint NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const [latest] = await s.query<{ migration: string }>(
      `SELECT coalesce(max(created_at), 0)::text AS migration FROM drizzle.__drizzle_migrations`,
    );
    const migration = latest?.migration ?? '0';
    const done = new Map(
      (
        await s.query<{ name: string; sha256: string; migration: string }>(
          `SELECT name, sha256, migration::text AS migration FROM ${LEDGER}`,
        )
      ).map((r) => [r.name, r]),
    );
    const stale = files.filter((f) => {
      const d = done.get(f.name);
      return d?.sha256 !== f.sha256 || d.migration !== migration;
    });
    if (stale.length === 0) return;
    await s.exec('SET LOCAL check_function_bodies = off');
    for (const f of stale) {
      try {
        await s.exec(f.text);
      } catch (err) {
        throw new Error(`src/store/sql/${f.name}: ${(err as Error).message}`, { cause: err });
      }
      await s.query(
        `INSERT INTO ${LEDGER} (name, sha256, migration) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE
           SET sha256 = excluded.sha256, migration = excluded.migration, applied_at = now()`,
        [f.name, f.sha256, migration],
      );
    }
    applied = stale.map((f) => f.name);
  });
  return applied;
}
