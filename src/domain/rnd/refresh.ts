import type { Logger } from 'pino';
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

/**
 * Runs the RND checks off the touch path: once right after a grant is recorded (`checkSoon`) and
 * on a schedule for everything due (`runOnce`, repeated by `start`). A failed query is logged and
 * retried on the next round; the gate reads whatever is stored.
 */
export class RndRefresher {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly repos: RndRepos,
    private readonly checker: RndChecker,
    private readonly now: () => number,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly o: { intervalMs: number; maxAgeDays: number; batch: number },
  ) {}

  /** Fire and forget: a grant's check must not delay or fail the request that recorded it. */
  checkSoon(work: RndWork): Promise<void> {
    return checkAndStore(this.repos, this.checker, work, this.now()).catch((err: unknown) => {
      this.logger.warn({ err, e164: work.e164 }, 'RND check failed; the schedule retries it');
    });
  }

  async runOnce(): Promise<number> {
    const due = await dueChecks(this.repos, this.now(), this.o.maxAgeDays, this.o.batch);
    for (const work of due) await this.checkSoon(work);
    return due.length;
  }

  start(): void {
    if (this.timer) return;
    const tick = () => {
      this.running = this.runOnce()
        .then(() => undefined)
        .catch((err: unknown) => this.logger.warn({ err }, 'RND refresh round failed'))
        .finally(() => {
          if (this.timer) this.timer = setTimeout(tick, this.o.intervalMs);
        });
    };
    this.timer = setTimeout(tick, 0);
  }

  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
