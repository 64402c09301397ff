import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import {
  DEFAULT_UPLOAD_OPTIONS,
  type UploadDeps,
  type UploadOptions,
  uploadRound,
} from '../domain/conversions/delivery.js';

/**
 * Runs upload rounds (claim → send → record, src/domain/conversions/delivery.ts) until
 * stopped: again at once while rounds find work, else after `pollMs`. `tick()` is one round,
 * for tests with a TestClock. Small on purpose, to move onto the shared leased loop.
 */
export class UploadWorker {
  readonly options: UploadOptions;
  private running = false;
  private loop: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly deps: UploadDeps,
    options: Partial<UploadOptions> = {},
    private readonly pollMs = 1_000,
  ) {
    this.options = {
      ...DEFAULT_UPLOAD_OPTIONS,
      workerId: `${hostname()}:${process.pid}:up:${randomBytes(3).toString('hex')}`,
      ...options,
    };
  }

  tick(): Promise<number> {
    return uploadRound(this.deps, this.options);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.runLoop();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = null;
  }

  private async runLoop(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      try {
        claimed = await this.tick();
      } catch (err) {
        this.deps.logger.error({ err }, 'upload round failed');
      }
      if (!this.running) break;
      if (claimed > 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }
}
