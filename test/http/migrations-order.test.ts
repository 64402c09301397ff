/**
 * A database that holds the committed migrations, given migrations edited the ways that
 * got one skipped without a word: `migrate()` (which every start runs before it listens)
 * refuses with one line and applies nothing; a migration appended by the journal tool is
 * applied. On both stores.
 */
import { cpSync, mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { describeStartupFailure } from '../../src/startup-errors.js';
import { MIGRATIONS_DIR, openStore, type Store } from '../../src/store/db.js';
import {
  formatJournal,
  journalPath,
  MigrationsOutOfOrder,
  readJournal,
  syncedJournal,
} from '../../src/store/migrate-journal.js';
import { scratchDatabase, storeKind } from '../helpers/store.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const step of cleanups.splice(0).reverse()) await step();
});

function migrationsCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A database holding every committed migration, opened to migrate from `dir`. */
async function migratedDatabase(dir: string): Promise<{ store: Store; url?: string }> {
  if (storeKind === 'pglite') {
    const store = await openStore({
      pgliteImage: await openAsBlob(inject('pgliteImage')),
      migrationsDir: dir,
    });
    cleanups.push(() => store.close());
    return { store };
  }
  const scratch = await scratchDatabase('tracking_migrations', inject('postgresTemplate'));
  cleanups.push(() => scratch.drop());
  const store = await openStore({ databaseUrl: scratch.url, migrationsDir: dir, poolSize: 2 });
  cleanups.push(() => store.close());
  return { store, url: scratch.url };
}

const tableExists = async (store: Store, name: string) =>
  (await store.query<{ t: string | null }>('select to_regclass($1)::text as t', [name]))[0]!.t !==
  null;

const appliedCount = async (store: Store) =>
  Number(
    (
      await store.query<{ n: string }>('select count(*) as n from drizzle.__drizzle_migrations', [])
    )[0]!.n,
  );

describe('migrations that cannot be skipped', () => {
  it('a new migration with an earlier when: migrate refuses in one line, applies nothing', async () => {
    const dir = migrationsCopy();
    const journal = readJournal(dir);
    const lastEntry = journal.entries.at(-1)!;
    writeFileSync(join(dir, '0099_late.sql'), 'create table late_table (id int);\n');
    journal.entries.push({
      idx: journal.entries.length,
      version: '7',
      when: lastEntry.when - 1,
      tag: '0099_late',
      breakpoints: true,
    });
    writeFileSync(journalPath(dir), formatJournal(journal));
    const { store, url } = await migratedDatabase(dir);
    const before = await appliedCount(store);

    const failure = await store.migrate().then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(MigrationsOutOfOrder);
    const line = describeStartupFailure(
      failure,
      loadConfig(url ? { DATABASE_URL: url } : { DATA_DIR: dir }),
    );
    expect(line).toBe(
      'the migrations journal is unsound (npm run migrations:check): journal entry 0099_late ' +
        `has when ${lastEntry.when - 1}, not later than ${lastEntry.tag}'s ${lastEntry.when}: ` +
        'a database that applied the earlier ones would skip it',
    );
    expect(line).not.toContain('\n');
    expect(await tableExists(store, 'late_table')).toBe(false);
    expect(await appliedCount(store)).toBe(before);
  });

  it('a migration slipped in below the applied ones: refused, though the journal is in order', async () => {
    const dir = migrationsCopy();
    const journal = readJournal(dir);
    const at = journal.entries.findIndex((e) => e.tag === '0019_opt_out_clarification');
    const [previous, next] = [journal.entries[at - 1]!, journal.entries[at]!];
    writeFileSync(join(dir, '0018_slipped.sql'), 'create table slipped_table (id int);\n');
    journal.entries.splice(at, 0, {
      idx: at,
      version: '7',
      when: Math.floor((previous.when + next.when) / 2),
      tag: '0018_slipped',
      breakpoints: true,
    });
    journal.entries.forEach((e, i) => {
      e.idx = i;
    });
    writeFileSync(journalPath(dir), formatJournal(journal));
    const { store } = await migratedDatabase(dir);

    await expect(store.migrate()).rejects.toThrow(
      /^the database's migration #19 \(when \d+\) is not the journal's 0018_slipped .*refusing to start$/,
    );
    expect(await tableExists(store, 'slipped_table')).toBe(false);
  });

  it('a migration the journal tool appended is applied', async () => {
    const dir = migrationsCopy();
    writeFileSync(join(dir, '0099_added.sql'), 'create table added_table (id int);\n');
    writeFileSync(journalPath(dir), formatJournal(syncedJournal(dir).journal));
    const { store } = await migratedDatabase(dir);
    const before = await appliedCount(store);

    await store.migrate();
    expect(await tableExists(store, 'added_table')).toBe(true);
    expect(await appliedCount(store)).toBe(before + 1);
    // Started again: nothing left to apply, nothing refused.
    await store.migrate();
    expect(await appliedCount(store)).toBe(before + 1);
  });
});
