/**
 * The stored functions and triggers have one source: their files in src/store/sql, applied by
 * `migrate()` after the numbered migrations (src/store/sql-files.ts). On both stores: the
 * migrated database holds exactly what the files define, and editing a file then migrating
 * again replaces what it defines.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, type Store } from '../../src/store/db.js';
import { formatJournal, journalPath, syncedJournal } from '../../src/store/migrate-journal.js';
import { SQL_DIR } from '../../src/store/sql-files.js';
import { openTestStore } from '../helpers/store.js';

/** Objects of the public schema an extension did not bring. */
const OWN_FUNCTIONS = `
  FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
 WHERE n.nspname = 'public'
   AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`;

/** Every function's and trigger's definition, as the database prints it. */
async function catalogue(store: Store) {
  const functions = await store.query<{ name: string; def: string }>(
    `SELECT p.oid::regprocedure::text AS name, pg_get_functiondef(p.oid) AS def ${OWN_FUNCTIONS}
      ORDER BY 1`,
    [],
  );
  const triggers = await store.query<{ name: string; def: string }>(
    `SELECT c.relname || '.' || t.tgname AS name, pg_get_triggerdef(t.oid) AS def
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT t.tgisinternal
      ORDER BY 1`,
    [],
  );
  return {
    functions: Object.fromEntries(functions.map((r) => [r.name, r.def])),
    triggers: Object.fromEntries(triggers.map((r) => [r.name, r.def])),
  };
}

/** Drops every function of the public schema, and with them the triggers that call them. */
async function dropAllFunctions(store: Store) {
  await store.query(
    `DO $$
     DECLARE f text;
     BEGIN
       FOR f IN SELECT p.oid::regprocedure::text ${OWN_FUNCTIONS} LOOP
         EXECUTE format('DROP FUNCTION IF EXISTS %s CASCADE', f);
       END LOOP;
     END $$`,
    [],
  );
}

async function one<T>(store: Store, sql: string): Promise<T> {
  const [row] = await store.query<{ v: T }>(sql, []);
  return row!.v;
}

const ledger = async (store: Store) =>
  Object.fromEntries(
    (
      await store.query<{ name: string; at: string }>(
        'SELECT name, applied_at::text AS at FROM drizzle.__sql_files',
        [],
      )
    ).map((r) => [r.name, r.at]),
  );

function edit(dir: string, file: string, from: string, to: string) {
  const text = readFileSync(join(dir, file), 'utf8');
  expect(text).toContain(from);
  writeFileSync(join(dir, file), text.replace(from, to));
}

describe('stored functions and triggers (src/store/sql)', () => {
  it('the migrated database holds exactly the functions and triggers the files define', async () => {
    const store = await openTestStore();
    try {
      const migrated = await catalogue(store);
      // One file per function, named after it.
      const names = new Set(Object.keys(migrated.functions).map((f) => f.replace(/\(.*$/, '')));
      for (const file of readdirSync(SQL_DIR)) expect(names).toContain(file.replace(/\.sql$/, ''));

      await dropAllFunctions(store);
      expect(await catalogue(store)).toEqual({ functions: {}, triggers: {} });
      // Forget what was applied: the files alone rebuild what the migrations and files made.
      await store.query('DELETE FROM drizzle.__sql_files', []);
      await store.migrate();
      expect(await catalogue(store)).toEqual(migrated);
    } finally {
      await store.close();
    }
  });

  it('editing a file and migrating again replaces its function and triggers, and only those', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tracking-sql-'));
    cpSync(SQL_DIR, dir, { recursive: true });
    const store = await openTestStore({ sqlDir: dir });
    try {
      const path = "SELECT report_path('https://example.com') AS v";
      const orgsTrigger = `SELECT pg_get_triggerdef(oid) AS v FROM pg_trigger
                            WHERE tgname = 'orgs_stamp_changed_at'`;
      expect(await one(store, path)).toBe('/');
      expect(await one(store, orgsTrigger)).toContain('BEFORE INSERT OR UPDATE ON public.orgs');
      const before = await ledger(store);

      edit(dir, 'report_path.sql', "''), '/')\n    ELSE", "''), '(root)')\n    ELSE");
      edit(
        dir,
        'stamp_changed_at.sql',
        'orgs_stamp_changed_at BEFORE INSERT OR UPDATE',
        'orgs_stamp_changed_at BEFORE UPDATE',
      );
      await store.migrate();
      expect(await one(store, path)).toBe('(root)');
      expect(await one(store, orgsTrigger)).toContain('BEFORE UPDATE ON public.orgs');
      const after = await ledger(store);
      const changed = Object.keys(after).filter((f) => after[f] !== before[f]);
      expect(changed.sort()).toEqual(['report_path.sql', 'stamp_changed_at.sql']);

      // Nothing new: nothing applied.
      await store.migrate();
      expect(await ledger(store)).toEqual(after);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('after a numbered migration every file is applied again (one may have dropped a function)', async () => {
    const plain = await openTestStore();
    const migrated = await catalogue(plain);
    await plain.close();
    // A new migration that drops a function (as one changing report_path's signature would
    // first), appended as `npm run migrations:journal` appends it.
    const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
    cpSync(MIGRATIONS_DIR, dir, { recursive: true });
    writeFileSync(
      join(dir, '0999_drop_report_path.sql'),
      'DROP FUNCTION report_path(text) CASCADE;\n',
    );
    writeFileSync(journalPath(dir), formatJournal(syncedJournal(dir).journal));
    const store = await openTestStore({ migrationsDir: dir });
    try {
      expect(await catalogue(store)).toEqual(migrated);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
