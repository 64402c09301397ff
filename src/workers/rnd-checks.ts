import type { Logger } from 'pino';
import type { RndChecker } from '../domain/rnd/checker.js';
import type { RndRepos, RndWork } from '../domain/rnd/ports.js';
import { checkAndStore, dueChecks } from '../domain/rnd/refresh.js';
import { LeasedWorker } from './leased-worker.js';

/**
 * Runs the RND checks off the touch path: once right after a grant is recorded (`checkSoon`) and
 * on a schedule for everything due (`runOnce`, repeated by `start`). A failed query is logged and
 * retried on the next round; the gate reads whatever is stored.
 */
export class RndRefresher {
  private readonly loop: LeasedWorker<'round'>;

  constructor(
    private readonly repos: RndRepos,
    private readonly checker: RndChecker,
    private readonly now: () => number,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly o: { intervalMs: number; maxAgeDays: number; batch: number },
  ) {
    // Each round checks what is due, one at a time; the next starts an interval after it ends.
    this.loop = new LeasedWorker<'round'>(
      { claim: async () => ['round'], run: async () => void (await this.runOnce()) },
      {
        concurrency: 1,
        pollMs: o.intervalMs,
        mode: 'round',
        onError: (err) => this.logger.warn({ err }, 'RND refresh round failed'),
      },
    );
  }

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
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }
}
