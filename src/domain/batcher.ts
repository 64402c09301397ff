export interface BatcherOptions {
  /** Batches in flight at once (database connections used): 1 on PGlite, which runs one query at a time. */
  inFlight: number;
  /** Requests per batch at most. */
  maxSize: number;
  /** Told the size of every batch sent (the dni_batch_size and routing_batch_size histograms). */
  onBatch?: (size: number) => void;
}

/** Where a batch goes: one transaction for all its requests, one result each, in order. */
export interface BatchSink<Req, Res> {
  send(requests: readonly Req[]): Promise<Res[]>;
  /**
   * True when a failed batch says nothing of the store's health (a bug or bad data in one
   * request): its requests are then retried one by one, each alone and one after another (the
   * batch's one connection, never one each), so only the culprit fails. False for a
   * lost connection, a shutdown, a full disk: every request of the batch fails with it (503).
   */
  retryAlone(err: unknown): boolean;
}

interface Waiting<Req, Res> {
  request: Req;
  resolve(result: Res): void;
  reject(err: unknown): void;
}

/**
 * Requests in batches (DNI opens, voice webhooks): a request that arrives while
 * `inFlight` batches are running waits for one of them to finish and then goes
 * with everything else that arrived meanwhile, in one transaction. A lone
 * request goes at once, alone. Under load the database sees a few large
 * transactions instead of many small ones fighting over the same rows
 * (bench/README.md).
 *
 * What waits is shared evenly among the free connections, never all in one
 * batch while another connection idles: otherwise a closed loop of clients
 * settles into one batch holding every client, the database idles while Node
 * answers and reads them, and Node idles while the database runs them
 * (bench/README.md, "Idle time in a closed loop": +10 to +18 % sessions/s).
 */
export class Batcher<Req, Res> {
  private readonly waiting: Waiting<Req, Res>[] = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly sink: BatchSink<Req, Res>,
    private readonly options: BatcherOptions,
  ) {}

  /** The request's result, once the batch it went in has committed. */
  add(request: Req): Promise<Res> {
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

  /** Nothing waiting and no batch running: a keyed batcher may forget this one. */
  get idle(): boolean {
    return this.running === 0 && this.waiting.length === 0 && !this.scheduled;
  }

  private async send(batch: Waiting<Req, Res>[]): Promise<void> {
    let results: Res[];
    try {
      results = await this.sink.send(batch.map((w) => w.request));
    } catch (err) {
      if (batch.length > 1 && this.sink.retryAlone(err)) {
        // One after another, in the batch's place: a batch of 64 retried all at once would
        // ask the pool for 64 connections and starve every other request of them.
        for (const w of batch) await this.send([w]);
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
