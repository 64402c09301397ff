import type { RndChecker } from './checker.js';
import type { RndRepos, RndWork } from './ports.js';

const DAY = 86_400_000;

export type { RndWork };

/** Queries the checker and stores the answer for (number, consent date). */
export async function checkAndStore(
  repos: RndRepos,
  checker: RndChecker,
  work: RndWork,
  nowMs: number,
): Promise<void> {
  const result = await checker.query(work.e164, work.consent_date);
  await repos.rnd.saveRndAnswer(repos.db, work.e164, {
    consent_date: work.consent_date,
    result,
    checked_at: nowMs,
    checker: checker.name,
  });
}

/**
 * (number, consent date) pairs of current grants with no stored answer, or an answer older than
 * `maxAgeDays` (numbers are disconnected and reassigned all the time, so answers age).
 */
export function dueChecks(
  repos: RndRepos,
  nowMs: number,
  maxAgeDays: number,
  limit: number,
): Promise<RndWork[]> {
  return repos.rnd.dueRndChecks(repos.db, new Date(nowMs - maxAgeDays * DAY), limit);
}
