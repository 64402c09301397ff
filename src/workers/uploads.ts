import {
  claim,
  DEFAULT_UPLOAD_OPTIONS,
  record,
  run,
  type UploadDeps,
  type UploadOptions,
  uploadRound,
} from '../domain/conversions/delivery.js';
import type { ClaimedUpload } from '../domain/conversions/worker-ports.js';
import { LeasedWorker, withWorkerId } from './leased-worker.js';

/**
 * Upload rounds (claim → send → record, src/domain/conversions/delivery.ts) on the shared
 * leased loop: one round's claimed rows are one item, since they are sent grouped per
 * destination and kind. A round that found work claims again at once, else the loop rests
 * `pollMs` (batch mode, one item in flight).
 */
export class UploadWorker {
  readonly options: UploadOptions;
  private readonly loop: LeasedWorker<ClaimedUpload[]>;

  constructor(
    private readonly deps: UploadDeps,
    options: Partial<UploadOptions> = {},
    pollMs = 1_000,
  ) {
    this.options = withWorkerId(DEFAULT_UPLOAD_OPTIONS, options, 'up:');
    this.loop = new LeasedWorker(
      {
        claim: async () => {
          const rows = await claim(this.deps, this.options);
          return rows.length > 0 ? [rows] : [];
        },
        run: async (rows) => {
          await record(this.deps, await run(this.deps, rows, this.options), this.options);
        },
      },
      {
        concurrency: 1,
        pollMs,
        mode: 'batch',
        onError: (err) => deps.logger.error({ err }, 'upload round failed'),
      },
    );
  }

  /** One round, the loop's steps in order, for tests with a TestClock: how many rows it claimed. */
  tick(): Promise<number> {
    return uploadRound(this.deps, this.options);
  }

  start(): void {
    this.loop.start();
  }

  /** Stops claiming and waits for the round in flight to be recorded. */
  stop(): Promise<void> {
    return this.loop.stop();
  }
}
