import type { Logger } from 'pino';
import type { Clock, Metrics } from '../deps.js';
import { exponentialBackoffMs } from '../domain/backoff.js';
import type { Carrier, SendResult } from '../domain/dispatch/carriers/types.js';
import type { ClaimedJob, DispatchRepository, Outcome } from '../domain/dispatch/ports.js';
import type { Executor } from '../domain/ports.js';
import { LeasedWorker, withWorkerId } from './leased-worker.js';

export interface WorkerOptions {
  /** Visibility timeout of a claimed job; longer than any carrier request may take. */
  leaseMs: number;
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  batchSize: number;
  pollMs: number;
  workerId: string;
}

export const DEFAULT_WORKER_OPTIONS: Omit<WorkerOptions, 'workerId'> = {
  leaseMs: 60_000,
  maxAttempts: 8,
  backoffBaseMs: 5_000,
  backoffMaxMs: 15 * 60_000,
  batchSize: 10,
  pollMs: 500,
};

/** Exponential: base, 2×base, 4×base… capped. Attempt 1 is the first hand-over. */
export function backoffMs(
  attempt: number,
  o: Pick<WorkerOptions, 'backoffBaseMs' | 'backoffMaxMs'>,
) {
  return exponentialBackoffMs(attempt, o.backoffBaseMs, o.backoffMaxMs);
}

/** What a carrier answer means for the job (docs/outbound.md has the table). */
export function outcomeOf(
  result: SendResult,
  attempt: number,
  idempotent: boolean,
  nowMs: number,
  o: Pick<WorkerOptions, 'maxAttempts' | 'backoffBaseMs' | 'backoffMaxMs'>,
): Outcome {
  if (result.outcome === 'accepted') {
    return {
      attempt: 'accepted',
      carrierId: result.carrierId,
      error: null,
      next: { state: 'final', touch: 'delivered' },
    };
  }
  const retryable = result.outcome === 'unknown' ? idempotent : result.retryable;
  if (!retryable) {
    const unknown = result.outcome === 'unknown';
    return {
      attempt: unknown ? 'unknown' : 'failed',
      carrierId: null,
      error: result.error,
      next: { state: 'final', touch: unknown ? 'unknown' : 'failed' },
    };
  }
  if (attempt >= o.maxAttempts) {
    return {
      attempt: 'failed',
      carrierId: null,
      error: `${result.error} (gave up after ${attempt} attempts)`,
      next: { state: 'final', touch: 'failed' },
    };
  }
  return {
    attempt: result.outcome === 'unknown' ? 'unknown' : 'retry',
    carrierId: null,
    error: result.error,
    next: { state: 'pending', retryAtMs: nowMs + backoffMs(attempt, o) },
  };
}

export interface TickReport {
  claimed: number;
  delivered: number;
  retried: number;
  failed: number;
  unknown: number;
  /** Jobs another worker had claimed by the time this one recorded its outcome. */
  lostLease: number;
}

const emptyReport = (): TickReport => ({
  claimed: 0,
  delivered: 0,
  retried: 0,
  failed: 0,
  unknown: 0,
  lostLease: 0,
});

export interface WorkerDeps {
  repos: { readonly db: Executor; dispatch: DispatchRepository };
  carrier: Carrier;
  clock: Clock;
  logger: Logger;
  metrics?: Metrics;
}

/**
 * Hands queued touches to the carrier. `tick()` does one round (tests drive it with a TestClock);
 * `start()` repeats it until `stop()`. Any number of workers, in any processes, may share one
 * database: claims are leases taken with SKIP LOCKED.
 */
export class DispatchWorker {
  readonly options: WorkerOptions;
  private readonly loop: LeasedWorker<ClaimedJob>;

  constructor(
    private readonly deps: WorkerDeps,
    options: Partial<WorkerOptions> = {},
  ) {
    this.options = withWorkerId(DEFAULT_WORKER_OPTIONS, options);
    // The loop's rounds report to nobody: the log and the metrics say what happened.
    const unread = emptyReport();
    this.loop = new LeasedWorker(
      { claim: (n) => this.claim(n), run: (job) => this.run(job, unread) },
      {
        concurrency: this.options.batchSize,
        pollMs: this.options.pollMs,
        mode: 'batch',
        onError: (err) => deps.logger.error({ err }, 'dispatch round failed'),
      },
    );
  }

  private claim(limit: number): Promise<ClaimedJob[]> {
    const { repos, carrier, clock } = this.deps;
    const o = this.options;
    return repos.dispatch.claimJobs(repos.db, {
      nowMs: clock.now(),
      leaseMs: o.leaseMs,
      limit,
      worker: o.workerId,
      carrier: carrier.name,
    });
  }

  /** One round: claims a batch, hands every job to the carrier and records the outcomes. */
  async tick(): Promise<TickReport> {
    const jobs = await this.claim(this.options.batchSize);
    const report = { ...emptyReport(), claimed: jobs.length };
    await Promise.all(jobs.map((job) => this.run(job, report)));
    return report;
  }

  private async run(job: ClaimedJob, report: TickReport): Promise<void> {
    const { repos, carrier, clock, logger, metrics } = this.deps;
    let outcome: Outcome;
    if (job.priorUnknown && !carrier.idempotent) {
      // The last hand-over may have reached the carrier; sending again could contact twice.
      outcome = {
        attempt: 'skipped',
        carrierId: null,
        error: 'an earlier attempt has an unknown outcome and the carrier has no idempotency key',
        next: { state: 'final', touch: 'unknown' },
      };
    } else {
      let result: SendResult;
      try {
        result = await carrier.send(job.payload, {
          idempotencyKey: job.touchId,
          attempt: job.attempt,
        });
      } catch (err) {
        result = { outcome: 'unknown', error: err instanceof Error ? err.message : String(err) };
      }
      outcome = outcomeOf(result, job.attempt, carrier.idempotent, clock.now(), this.options);
    }
    const kept = await repos.dispatch.recordOutcome(
      repos.db,
      job,
      this.options.workerId,
      carrier.name,
      outcome,
      clock.now(),
    );
    metrics?.dispatchAttempts.inc({ carrier: carrier.name, outcome: outcome.attempt });
    if (!kept) {
      report.lostLease++;
      logger.warn({ job: job.jobId, touch: job.touchId }, 'dispatch lease lost before recording');
      return;
    }
    if (outcome.next.state === 'pending') report.retried++;
    else report[outcome.next.touch === 'delivered' ? 'delivered' : outcome.next.touch]++;
    if (outcome.next.state === 'final' && outcome.next.touch !== 'delivered') {
      logger.warn(
        { touch: job.touchId, attempt: job.attempt, error: outcome.error },
        `touch ${outcome.next.touch}`,
      );
    }
  }

  start(): void {
    this.loop.start();
  }

  /** Finishes the round in progress; jobs it claimed but could not finish are leased out again. */
  stop(): Promise<void> {
    return this.loop.stop();
  }
}
