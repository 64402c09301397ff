import { writeFileSync } from 'node:fs';
import { MIGRATIONS_DIR } from './db.js';
import { formatJournal, journalPath, journalProblems, syncedJournal } from './migrate-journal.js';

/**
 * `npm run migrations:check`: exits non-zero, one line a problem, when the journal and the
 * migration files disagree (src/store/migrate-journal.ts has the rules).
 * `npm run migrations:journal`: appends an entry for each new file, `when` one step after
 * the last, drops entries whose file is gone, then checks.
 */
const command = process.argv[2];
const dir = process.argv[3] ?? MIGRATIONS_DIR;

if (command === 'journal') {
  try {
    const { journal, changes } = syncedJournal(dir);
    if (changes.length > 0) writeFileSync(journalPath(dir), formatJournal(journal));
    for (const change of changes) process.stdout.write(`${change}\n`);
    if (changes.length === 0) process.stdout.write('journal already names every migration\n');
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
} else if (command !== 'check') {
  process.stderr.write('usage: migrate-journal-cli (check|journal) [migrations dir]\n');
  process.exit(2);
}
const problems = journalProblems(dir);
for (const problem of problems) process.stderr.write(`${problem}\n`);
if (problems.length > 0) process.exit(1);
if (command === 'check') process.stdout.write(`migrations journal sound (${dir})\n`);
