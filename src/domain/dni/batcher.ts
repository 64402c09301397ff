import type { SessionOpenRequest, SessionOpenResult, SessionStore } from './ports.js';

export interface BatcherOptions {
  /** Batches in flight at once (database connections used): 1 on PGlite, which runs one query at a time. */
  inFlight: number;
  /** Requests per batch at most. */
  maxSize: number;
  /** Told the size of every batch sent (the dni_batch_size histogram). */
  onBatch?: (size: number) => void;
}

interface Waiting {
  request: SessionOpenRequest;
  resolve(result: SessionOpenResult): void;
  reject(err: unknown): void;
}

/**
 * Opens DNI sessions in batches: a request that arrives while `inFlight`
 * batches are running waits for one of them to finish and then goes with
 * everything else that arrived meanwhile, in one statement. A lone request
 * goes at once, alone. Per process and per store: under load the database sees
 * a few large transactions instead of many small ones fighting over the same
 * rows (bench/README.md).
 *
 * What waits is shared evenly among the free connections, never all in one
 * batch while another connection idles: otherwise a closed loop of clients
 * settles into one batch holding every client, the database idles while Node
 * answers and reads them, and Node idles while the database runs them
 * (bench/README.md, "Idle time in a closed loop": +10 to +18 % sessions/s).
 */
export class SessionBatcher {
  private readonly waiting: Waiting[] = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly store: SessionStore,
    private readonly options: BatcherOptions,
  ) {}

  open(request: SessionOpenRequest): Promise<SessionOpenResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      // Requests parsed in the same turn of the event loop go together.
      if (!this.scheduled && this.running < this.options.inFlight) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  private pump(): void {
    while (this.running < this.options.inFlight && this.waiting.length > 0) {
      const free = this.options.inFlight - this.running;
      const size = Math.min(this.options.maxSize, Math.ceil(this.waiting.length / free));
      const batch = this.waiting.splice(0, size);
      this.running++;
      this.options.onBatch?.(batch.length);
      void this.send(batch).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async send(batch: Waiting[]): Promise<void> {
    let results: SessionOpenResult[];
    try {
      results = await this.store.openSessions(batch.map((w) => w.request));
    } catch (err) {
      if (batch.length > 1 && this.store.retryAlone(err)) {
        await Promise.all(batch.map((w) => this.send([w])));
      } else {
        for (const w of batch) w.reject(err);
      }
      return;
    }
    for (let i = 0; i < batch.length; i++) {
      const result = results[i];
      if (result) batch[i]!.resolve(result);
      else batch[i]!.reject(new Error(`the store answered ${results.length} of ${batch.length}`));
    }
  }
}
