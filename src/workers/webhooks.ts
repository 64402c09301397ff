import type { Logger } from 'pino';
import type { SendResult, WebhookSender } from '../adapters/webhook-sender.js';
import { signedHeaders } from '../adapters/webhook-signing.js';
import type { Clock, Metrics } from '../deps.js';
import { exponentialBackoffMs, withJitter } from '../domain/backoff.js';
import type { Executor } from '../domain/ports.js';
import type {
  AttemptRecord,
  ClaimedDelivery,
  DeliveryRepository,
} from '../domain/webhooks/ports.js';
import { LeasedWorker, withWorkerId } from './leased-worker.js';

export interface DeliveryOptions {
  maxAttempts: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Deliveries in flight per endpoint, across every worker. */
  perEndpoint: number;
  /** Deliveries in flight in this worker. */
  concurrency: number;
  pollMs: number;
  /** Longer than the request timeout: a lease that runs out hands the delivery to another worker. */
  leaseMs: number;
  disableAfterFailures: number;
  disableAfterMs: number;
  workerId: string;
}

export const DEFAULT_DELIVERY_OPTIONS: Omit<DeliveryOptions, 'workerId'> = {
  maxAttempts: 16,
  backoffBaseMs: 10_000,
  backoffMaxMs: 6 * 3_600_000,
  perEndpoint: 4,
  concurrency: 64,
  pollMs: 500,
  leaseMs: 45_000,
  disableAfterFailures: 50,
  disableAfterMs: 24 * 3_600_000,
};

/**
 * Delay before attempt `attempt + 1`: base·2^(attempt−1), capped, plus up to 20 % jitter
 * (src/domain/backoff.ts). The defaults (10 s base, 6 h cap, 16 attempts) spread the
 * attempts over 29.4 hours before jitter (up to 35 hours with it).
 */
export function retryDelayMs(
  attempt: number,
  o: Pick<DeliveryOptions, 'backoffBaseMs' | 'backoffMaxMs'>,
  random: () => number = Math.random,
): number {
  return withJitter(exponentialBackoffMs(attempt, o.backoffBaseMs, o.backoffMaxMs), random);
}

/** What one answer means: 2xx delivered, 410 gone (endpoint disabled), anything else a retry. */
export function attemptOf(
  result: SendResult,
  attempt: number,
  nowMs: number,
  o: Pick<DeliveryOptions, 'maxAttempts' | 'backoffBaseMs' | 'backoffMaxMs'>,
  random?: () => number,
): Omit<AttemptRecord, 'startedAt'> {
  const base = {
    statusCode: result.status,
    latencyMs: result.latencyMs,
    responseHead: result.head,
  };
  if (result.status !== null && result.status >= 200 && result.status < 300) {
    return { ...base, outcome: 'delivered', error: null, next: { state: 'delivered' } };
  }
  const error = result.error ?? `HTTP ${result.status}`;
  if (result.status === 410) return { ...base, outcome: 'gone', error, next: { state: 'failed' } };
  if (attempt >= o.maxAttempts) {
    return {
      ...base,
      outcome: 'failed',
      error: `${error} (gave up after ${attempt} attempts)`,
      next: { state: 'failed' },
    };
  }
  return {
    ...base,
    outcome: 'failed',
    error,
    next: { state: 'pending', retryAtMs: nowMs + retryDelayMs(attempt, o, random) },
  };
}

export interface DeliveryDeps {
  repos: { readonly db: Executor; deliveries: DeliveryRepository };
  sender: WebhookSender;
  clock: Clock;
  logger: Logger;
  metrics?: Metrics | undefined;
}

/**
 * Delivers the webhook outbox at least once. `tick()` claims what is due and waits for it
 * (tests drive it with a TestClock); `start()` keeps up to `concurrency` deliveries in flight
 * and claims more as each one finishes, so a slow receiver holds its own slots only.
 */
export class WebhookWorker {
  readonly options: DeliveryOptions;
  private readonly loop: LeasedWorker<ClaimedDelivery>;

  constructor(
    private readonly deps: DeliveryDeps,
    options: Partial<DeliveryOptions> = {},
  ) {
    this.options = withWorkerId(DEFAULT_DELIVERY_OPTIONS, options, 'wh:');
    // Up to `concurrency` in flight; a slot that frees claims again at once.
    this.loop = new LeasedWorker(
      { claim: (n) => this.claim(n), run: (d) => this.deliver(d) },
      {
        concurrency: this.options.concurrency,
        pollMs: this.options.pollMs,
        mode: 'stream',
        onError: (err) => deps.logger.error({ err }, 'webhook claim failed'),
      },
    );
  }

  /** Claims what is due now and delivers it; resolves with how many were claimed. */
  tick(): Promise<number> {
    return this.loop.tick();
  }

  private claim(limit: number): Promise<ClaimedDelivery[]> {
    const o = this.options;
    return this.deps.repos.deliveries.claimDeliveries(this.deps.repos.db, {
      nowMs: this.deps.clock.now(),
      leaseMs: o.leaseMs,
      limit,
      perEndpoint: o.perEndpoint,
      worker: o.workerId,
    });
  }

  private async deliver(d: ClaimedDelivery): Promise<void> {
    const { repos, sender, clock, logger, metrics } = this.deps;
    const startedAt = new Date(clock.now());
    let result: SendResult;
    try {
      const headers = signedHeaders(d.secrets, d.eventId, startedAt, d.body);
      result = await sender.send(d.url, { ...headers }, d.body);
    } catch (err) {
      result = { status: null, head: null, error: (err as Error).message, latencyMs: 0 };
    }
    const a = attemptOf(result, d.attempt, clock.now(), this.options);
    try {
      const { kept, disabled } = await repos.deliveries.recordAttempt(
        repos.db,
        d,
        this.options.workerId,
        { ...a, startedAt },
        {
          afterFailures: this.options.disableAfterFailures,
          afterMs: this.options.disableAfterMs,
        },
        clock.now(),
      );
      metrics?.webhookAttempts.inc({ outcome: a.outcome });
      if (!kept) logger.warn({ delivery: d.deliveryId }, 'webhook lease lost before recording');
      if (disabled) {
        metrics?.webhookEndpointsDisabled.inc({ reason: disabled });
        logger.warn({ webhook: d.endpointId, reason: disabled }, 'webhook endpoint disabled');
      }
    } catch (err) {
      // The lease runs out and another round sends it again: at least once.
      logger.error({ err, delivery: d.deliveryId }, 'webhook attempt not recorded');
    }
  }

  start(): void {
    this.loop.start();
  }

  /** Stops claiming and waits for the deliveries in flight (each bounded by the request timeout). */
  stop(): Promise<void> {
    return this.loop.stop();
  }
}
