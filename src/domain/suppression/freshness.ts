import { NATIONAL_LIST_MAX_AGE_DAYS } from '../compliance/index.js';
import type { ListFreshnessRepos } from './ports.js';

/** Warn this many days before a national list copy goes stale. */
export const STALE_WARNING_DAYS = 7;
const DAY = 86_400_000;

export interface ListNote {
  org_id: string;
  list: 'national';
  list_date: string;
  age_days: number;
  /** The first day touches below pewc are blocked with dnc_list_stale. */
  stale_on: string;
  stale: boolean;
}

/**
 * Notes for /readyz and the metrics: every organization whose newest national registry copy is
 * stale or goes stale within a week. Organizations that never imported one are not listed here:
 * their marketing touches below pewc already answer dnc_list_stale.
 */
export async function suppressionListNotes(
  repos: ListFreshnessRepos,
  nowMs: number,
): Promise<ListNote[]> {
  const today = Date.parse(`${new Date(nowMs).toISOString().slice(0, 10)}T00:00:00Z`);
  const notes: ListNote[] = [];
  for (const row of await repos.suppression.nationalListDates(repos.db)) {
    const listed = Date.parse(`${row.listed_on}T00:00:00Z`);
    const age = Math.round((today - listed) / DAY);
    if (age < NATIONAL_LIST_MAX_AGE_DAYS + 1 - STALE_WARNING_DAYS) continue;
    notes.push({
      org_id: row.org_id,
      list: 'national',
      list_date: row.listed_on,
      age_days: age,
      stale_on: new Date(listed + (NATIONAL_LIST_MAX_AGE_DAYS + 1) * DAY)
        .toISOString()
        .slice(0, 10),
      stale: age > NATIONAL_LIST_MAX_AGE_DAYS,
    });
  }
  return notes;
}

/** One line per note, for a /readyz body. */
export function noteText(note: ListNote): string {
  return note.stale
    ? `org ${note.org_id}: national do-not-call list dated ${note.list_date} is stale; import a fresh copy`
    : `org ${note.org_id}: national do-not-call list dated ${note.list_date} goes stale on ${note.stale_on}`;
}
