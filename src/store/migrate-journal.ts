import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The migrations' journal (migrations/meta/_journal.json) and the rules that keep a
 * migration from being skipped. Drizzle's migrator applies, in journal order, each entry
 * whose `when` is later than the newest `created_at` in drizzle.__drizzle_migrations, and
 * reads no `.sql` file the journal does not name. So an entry whose `when` is not larger
 * than every earlier one is skipped on a database that holds the earlier ones, and a file
 * with no entry is never applied. The rules:
 *
 * - every `NNNN_name.sql` file has exactly one entry, and every entry a file;
 * - entries are in file-number order, `idx` is the position, `when` strictly increases;
 * - a database's applied migrations are the journal's first entries, `when` for `when`
 *   (checked at start-up, before anything is applied).
 *
 * `npm run migrations:journal` writes the entries for new files; `npm run migrations:check`
 * (part of `npm run lint`) runs the first two checks.
 */

export interface JournalEntry {
  idx: number;
  version: string;
  when: number;
  tag: string;
  breakpoints: boolean;
}

export interface Journal {
  version: string;
  dialect: string;
  entries: JournalEntry[];
}

/** A migration file's name: four digits, an underscore, a name. */
const FILE = /^(\d{4})_([a-z0-9_]+)\.sql$/;

/** The distance between two appended entries' `when` (the journal's existing step). */
export const WHEN_STEP = 100_000;

export function journalPath(dir: string): string {
  return join(dir, 'meta/_journal.json');
}

export function readJournal(dir: string): Journal {
  return JSON.parse(readFileSync(journalPath(dir), 'utf8')) as Journal;
}

/** The `.sql` files in the directory, by number. Names that break the pattern are returned apart. */
export function migrationFiles(dir: string): { tags: string[]; misnamed: string[] } {
  const names = readdirSync(dir).filter((n) => n.endsWith('.sql'));
  const misnamed = names.filter((n) => !FILE.test(n));
  const tags = names
    .filter((n) => FILE.test(n))
    .map((n) => n.slice(0, -'.sql'.length))
    .sort();
  return { tags, misnamed };
}

function numberOf(tag: string): number {
  return Number(tag.slice(0, 4));
}

/** Everything wrong between the journal and the files, one sentence each; empty when sound. */
export function journalProblems(dir: string): string[] {
  const problems: string[] = [];
  const journal = readJournal(dir);
  const { tags, misnamed } = migrationFiles(dir);
  for (const name of misnamed) {
    problems.push(`${name} is not named NNNN_name.sql (lower case, digits, underscores)`);
  }
  const entered = new Set(journal.entries.map((e) => e.tag));
  for (const tag of tags) {
    if (!entered.has(tag))
      problems.push(`${tag}.sql has no journal entry: drizzle never applies it`);
  }
  const files = new Set(tags);
  const seenTags = new Set<string>();
  const seenNumbers = new Set<number>();
  journal.entries.forEach((entry, position) => {
    const { tag } = entry;
    if (!files.has(tag)) problems.push(`journal entry ${tag} has no file ${tag}.sql`);
    if (seenTags.has(tag)) problems.push(`journal entry ${tag} appears twice`);
    seenTags.add(tag);
    if (seenNumbers.has(numberOf(tag)) && !Number.isNaN(numberOf(tag))) {
      problems.push(`migration number ${tag.slice(0, 4)} is used twice`);
    }
    seenNumbers.add(numberOf(tag));
    if (entry.idx !== position) {
      problems.push(`journal entry ${tag} has idx ${entry.idx}, its position is ${position}`);
    }
    if (!Number.isSafeInteger(entry.when)) {
      problems.push(`journal entry ${tag} has no whole-number when`);
    }
    const previous = journal.entries[position - 1];
    if (previous === undefined) return;
    if (!(numberOf(tag) > numberOf(previous.tag))) {
      problems.push(
        `journal entry ${tag} comes after ${previous.tag}: entries go in file-number order`,
      );
    }
    if (!(entry.when > previous.when)) {
      problems.push(
        `journal entry ${tag} has when ${entry.when}, not later than ${previous.tag}'s ${previous.when}: ` +
          'a database that applied the earlier ones would skip it',
      );
    }
  });
  return problems;
}

/**
 * The journal with an entry appended for each file that has none, in file order, `when`
 * one step after the entry before it (never an invented value). Entries whose file is gone
 * are dropped. A new file numbered below an entered one is refused: a database that holds
 * the later migration would never apply it, so it takes the next free number instead.
 */
export function syncedJournal(dir: string): { journal: Journal; changes: string[] } {
  const journal = readJournal(dir);
  const { tags } = migrationFiles(dir);
  const files = new Set(tags);
  const changes: string[] = [];
  const kept = journal.entries.filter((e) => {
    if (files.has(e.tag)) return true;
    changes.push(`dropped ${e.tag} (no file)`);
    return false;
  });
  const entered = new Set(kept.map((e) => e.tag));
  const last = kept.at(-1);
  const fresh = tags.filter((t) => !entered.has(t));
  for (const tag of fresh) {
    if (last && numberOf(tag) <= numberOf(last.tag)) {
      throw new Error(
        `${tag}.sql is numbered below ${last.tag}, which the journal already holds: ` +
          `rename it to the next free number (above ${last.tag.slice(0, 4)})`,
      );
    }
  }
  const entries = [...kept];
  for (const tag of fresh) {
    const previous = entries.at(-1);
    const when = previous ? previous.when + WHEN_STEP : Date.now();
    entries.push({ idx: entries.length, version: '7', when, tag, breakpoints: true });
    changes.push(`added ${tag} (when ${when})`);
  }
  entries.forEach((e, i) => {
    e.idx = i;
  });
  return { journal: { ...journal, entries }, changes };
}

/** The journal as the file holds it: two-space JSON and a final newline. */
export function formatJournal(journal: Journal): string {
  return `${JSON.stringify(journal, null, 2)}\n`;
}

/** A database's migrations differ from the journal; the message is one line for the log. */
export class MigrationsOutOfOrder extends Error {
  override name = 'MigrationsOutOfOrder';
}

/** What drizzle.__drizzle_migrations holds, oldest first. */
export interface AppliedMigration {
  id: number;
  created_at: number;
}

/**
 * Throws when the committed migrations cannot be applied to this database exactly:
 * the journal is unsound, or the applied migrations are not its first entries.
 */
export function assertAppliable(dir: string, applied: readonly AppliedMigration[]): void {
  const problems = journalProblems(dir);
  if (problems.length > 0) {
    throw new MigrationsOutOfOrder(
      `the migrations journal is unsound (npm run migrations:check): ${problems.join('; ')}`,
    );
  }
  const entries = readJournal(dir).entries;
  if (applied.length > entries.length) {
    throw new MigrationsOutOfOrder(
      `the database holds ${applied.length} migrations, this build knows ${entries.length}: ` +
        'it was migrated by a newer build',
    );
  }
  applied.forEach((row, i) => {
    const entry = entries[i] as JournalEntry;
    if (Number(row.created_at) !== entry.when) {
      throw new MigrationsOutOfOrder(
        `the database's migration #${i + 1} (when ${row.created_at}) is not the journal's ${entry.tag} ` +
          `(when ${entry.when}): the applied migrations are not the journal's first ${applied.length}, ` +
          'so drizzle would skip some; refusing to start',
      );
    }
  });
}

/** The rows drizzle wrote, oldest first; none on a database it never migrated. */
export async function appliedMigrations(
  query: (text: string) => Promise<Record<string, unknown>[]>,
): Promise<AppliedMigration[]> {
  const [table] = await query(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  );
  if (!table?.present) return [];
  const rows = await query('select id, created_at from drizzle.__drizzle_migrations order by id');
  return rows.map((r) => ({ id: Number(r.id), created_at: Number(r.created_at) }));
}
