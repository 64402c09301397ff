import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * The one background loop every worker shares: claim → run → record, woken early by `wake()`,
 * stopped gracefully by `stop()`. The dispatch and webhook workers claim leased outbox rows (SKIP
 * LOCKED; a crashed worker's lease runs out and another claims the row again), retention
 * claims its round when it holds the lease row, the reassigned-number checks claim what is due.
 * What a claim leases and how a run records its outcome is the work's own business.
 */
/** A worker's name in leases and logs: host, process and a random tag, unique per instance. */
export function workerName(kind = ''): string {
  return `${hostname()}:${process.pid}:${kind}${randomBytes(3).toString('hex')}`;
}

/** A worker's options: the defaults, a fresh name (`kind` tags it), then what the caller gave. */
export function withWorkerId<O extends { workerId: string }>(
  defaults: Omit<O, 'workerId'>,
  given: Partial<O>,
  kind = '',
): O {
  return { ...defaults, workerId: workerName(kind), ...given } as O;
}

export interface Work<J> {
  /** Up to `limit` items to run now; none when there is nothing to do (or another holds it). */
  claim(limit: number): Promise<J[]>;
  /** Runs one item and records its outcome; a failure is logged, it never stops the loop. */
  run(item: J): Promise<void>;
}

export interface LeasedWorkerOptions {
  /** Items in flight at once: the claim asks for the free slots. */
  concurrency: number;
  /** Rest between rounds when there was nothing (more) to do, unless woken. */
  pollMs: number;
  /**
   * `batch`: a round claims, runs everything it claimed, and claims again at once only after a
   * full claim. `stream`: claims again as soon as a slot frees (one slow item holds only its
   * own slot). `round`: one claim per interval, for work that is a whole round.
   */
  mode: 'batch' | 'stream' | 'round';
  /** The first round waits this long (retention: one interval); 0 by default. */
  firstRoundAfterMs?: number;
  /** Do not keep the process alive for the timer (a job every process runs besides serving). */
  unref?: boolean;
  /** A claim or a round that threw: logged by the caller's words. */
  onError(err: unknown): void;
}

export class LeasedWorker<J> {
  private readonly inFlight = new Set<Promise<void>>();
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;

  constructor(
    private readonly work: Work<J>,
    private readonly o: LeasedWorkerOptions,
  ) {}

  /** Claims what is free now, runs it and waits for it; resolves with how many were claimed. */
  async tick(): Promise<number> {
    const started = await this.claimAndStart();
    await Promise.all(started);
    return started.length;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.runLoop();
  }

  /** Ends the rest between rounds now (new work was written, or a slot freed). */
  wake(): void {
    this.wakeUp?.();
  }

  /** Stops claiming, finishes the round in progress and waits for every item in flight. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    this.loop = null;
    await Promise.allSettled(this.inFlight);
  }

  private async claimAndStart(): Promise<Promise<void>[]> {
    const free = this.o.concurrency - this.inFlight.size;
    if (free <= 0) return [];
    const items = await this.work.claim(free);
    return items.map((item) => {
      const p = this.work.run(item).finally(() => {
        this.inFlight.delete(p);
        if (this.o.mode === 'stream') this.wake();
      });
      this.inFlight.add(p);
      // Nobody waits for a streamed item but stop(): its failure is logged here.
      if (this.o.mode === 'stream') p.catch((err: unknown) => this.o.onError(err));
      return p;
    });
  }

  private async runLoop(): Promise<void> {
    if (this.o.firstRoundAfterMs) await this.rest(this.o.firstRoundAfterMs);
    while (this.running) {
      const free = this.o.concurrency - this.inFlight.size;
      let claimed = 0;
      try {
        const started = await this.claimAndStart();
        claimed = started.length;
        if (this.o.mode !== 'stream') await Promise.all(started);
      } catch (err) {
        this.o.onError(err);
      }
      if (!this.running) break;
      const more =
        this.o.mode === 'stream'
          ? claimed > 0 && this.inFlight.size < this.o.concurrency
          : this.o.mode === 'batch' && claimed > 0 && claimed >= free;
      if (!more) await this.rest(this.o.pollMs);
    }
  }

  private rest(ms: number): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      if (this.o.unref) timer.unref();
      this.wakeUp = done;
      function done() {
        clearTimeout(timer);
        resolve();
      }
    }).finally(() => {
      this.wakeUp = null;
    });
  }
}
