/**
 * The journal and the migration files agree (src/store/migrate-journal.ts): the committed
 * ones, and copies edited the ways a migration gets skipped.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../src/store/db.js';
import {
  assertAppliable,
  formatJournal,
  type Journal,
  journalPath,
  journalProblems,
  MigrationsOutOfOrder,
  readJournal,
  syncedJournal,
  WHEN_STEP,
} from '../../src/store/migrate-journal.js';

const copies: string[] = [];
afterEach(() => {
  for (const dir of copies.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'journal-'));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  copies.push(dir);
  return dir;
}

function editJournal(dir: string, change: (j: Journal) => void) {
  const journal = readJournal(dir);
  change(journal);
  writeFileSync(journalPath(dir), formatJournal(journal));
}

const last = (dir: string) => readJournal(dir).entries.at(-1)!;

describe('the committed migrations', () => {
  it('have a sound journal: one entry a file, in file order, when strictly increasing', () => {
    expect(journalProblems(MIGRATIONS_DIR)).toEqual([]);
  });

  it('are written as the journal tool writes them (nothing to add, same bytes)', () => {
    const { journal, changes } = syncedJournal(MIGRATIONS_DIR);
    expect(changes).toEqual([]);
    expect(formatJournal(journal)).toBe(readFileSync(journalPath(MIGRATIONS_DIR), 'utf8'));
  });
});

describe('the journal check', () => {
  it('fails on a new migration whose when is earlier than the last (the skipped experiment)', () => {
    const dir = copy();
    const before = last(dir);
    writeFileSync(join(dir, '0099_late.sql'), 'create table late (id int);\n');
    editJournal(dir, (j) =>
      j.entries.push({
        idx: j.entries.length,
        version: '7',
        when: before.when - 1,
        tag: '0099_late',
        breakpoints: true,
      }),
    );
    expect(journalProblems(dir)).toEqual([
      `journal entry 0099_late has when ${before.when - 1}, not later than ${before.tag}'s ${before.when}: a database that applied the earlier ones would skip it`,
    ]);
    expect(() => assertAppliable(dir, [])).toThrow(MigrationsOutOfOrder);
  });

  it('fails on a .sql file without an entry', () => {
    const dir = copy();
    writeFileSync(join(dir, '0099_orphan.sql'), 'select 1;\n');
    expect(journalProblems(dir)).toEqual([
      '0099_orphan.sql has no journal entry: drizzle never applies it',
    ]);
  });

  it('fails on an entry without a file', () => {
    const dir = copy();
    unlinkSync(join(dir, `${last(dir).tag}.sql`));
    expect(journalProblems(dir)).toEqual([
      `journal entry ${last(dir).tag} has no file ${last(dir).tag}.sql`,
    ]);
  });

  it('fails on entries out of file order, a wrong idx, a repeated number and a misnamed file', () => {
    const dir = copy();
    editJournal(dir, (j) => {
      const [a, b] = j.entries.splice(3, 2);
      j.entries.splice(3, 0, b!, a!);
    });
    const problems = journalProblems(dir);
    expect(problems).toContain(
      'journal entry 0003_buyer_reports comes after 0004_buyer_reports_append_only: entries go in file-number order',
    );
    expect(problems.some((p) => p.includes('has idx 4, its position is 3'))).toBe(true);
    expect(problems.some((p) => p.startsWith('journal entry 0003_buyer_reports has when'))).toBe(
      true,
    );

    const other = copy();
    writeFileSync(join(other, '0031_again.sql'), 'select 1;\n');
    writeFileSync(join(other, 'Extra.sql'), 'select 1;\n');
    editJournal(other, (j) =>
      j.entries.push({
        idx: j.entries.length,
        version: '7',
        when: last(other).when + 1,
        tag: '0031_again',
        breakpoints: true,
      }),
    );
    expect(journalProblems(other)).toEqual([
      'Extra.sql is not named NNNN_name.sql (lower case, digits, underscores)',
      'migration number 0031 is used twice',
      `journal entry 0031_again comes after ${last(MIGRATIONS_DIR).tag}: entries go in file-number order`,
    ]);
  });
});

/** The migration number `k` after the last committed one, as a file name's four digits. */
const numberAfter = (k: number) =>
  String(Number(last(MIGRATIONS_DIR).tag.slice(0, 4)) + k).padStart(4, '0');

describe('the journal tool (npm run migrations:journal)', () => {
  it('appends new files in number order, when one step after the last', () => {
    const dir = copy();
    const before = last(dir);
    writeFileSync(join(dir, `${numberAfter(2)}_b.sql`), 'select 2;\n');
    writeFileSync(join(dir, `${numberAfter(1)}_a.sql`), 'select 1;\n');
    const { journal, changes } = syncedJournal(dir);
    expect(changes).toEqual([
      `added ${numberAfter(1)}_a (when ${before.when + WHEN_STEP})`,
      `added ${numberAfter(2)}_b (when ${before.when + 2 * WHEN_STEP})`,
    ]);
    writeFileSync(journalPath(dir), formatJournal(journal));
    expect(journalProblems(dir)).toEqual([]);
    expect(journal.entries.at(-1)).toEqual({
      idx: before.idx + 2,
      version: '7',
      when: before.when + 2 * WHEN_STEP,
      tag: `${numberAfter(2)}_b`,
      breakpoints: true,
    });
  });

  it('drops entries whose file was renamed, and enters the new name (renumbering at a merge)', () => {
    const dir = copy();
    const before = last(dir);
    writeFileSync(join(dir, `${numberAfter(9)}_branch.sql`), 'select 1;\n');
    writeFileSync(journalPath(dir), formatJournal(syncedJournal(dir).journal));
    cpSync(join(dir, `${numberAfter(9)}_branch.sql`), join(dir, `${numberAfter(1)}_branch.sql`));
    unlinkSync(join(dir, `${numberAfter(9)}_branch.sql`));
    const { journal, changes } = syncedJournal(dir);
    expect(changes).toEqual([
      `dropped ${numberAfter(9)}_branch (no file)`,
      `added ${numberAfter(1)}_branch (when ${before.when + WHEN_STEP})`,
    ]);
    expect(journal.entries.map((e) => e.tag).at(-1)).toBe(`${numberAfter(1)}_branch`);
  });

  it('refuses a new file numbered below one the journal holds', () => {
    const dir = copy();
    writeFileSync(join(dir, '0018_gap.sql'), 'select 1;\n');
    expect(() => syncedJournal(dir)).toThrow(
      `0018_gap.sql is numbered below ${last(dir).tag}, which the journal already holds`,
    );
  });
});

describe('applied migrations against the journal', () => {
  const entries = readJournal(MIGRATIONS_DIR).entries;
  const applied = (n: number) =>
    entries.slice(0, n).map((e, i) => ({ id: i + 1, created_at: e.when }));

  it('pass when they are its first entries, none to all', () => {
    for (const n of [0, 5, entries.length]) {
      expect(() => assertAppliable(MIGRATIONS_DIR, applied(n))).not.toThrow();
    }
  });

  it('refuse one that differs, and more than the journal holds', () => {
    const rows = applied(entries.length);
    rows[17] = { id: 18, created_at: rows[17]!.created_at - 1 };
    expect(() => assertAppliable(MIGRATIONS_DIR, rows)).toThrow(
      /^the database's migration #18 \(when \d+\) is not the journal's 0017_dni_clock/,
    );
    const extra = [...applied(entries.length), { id: 99, created_at: 1 }];
    expect(() => assertAppliable(MIGRATIONS_DIR, extra)).toThrow(/migrated by a newer build/);
  });
});
