/**
 * What the HTTP apps and the background jobs are given: the dependency
 * container's types, the clock and the HTTP layer's limits. Type-only imports
 * of leaf modules, so every layer can import this file without a cycle
 * (`npm run lint` checks there are none).
 */
import type { Logger } from 'pino';
import type { Counter, Histogram, Registry } from 'prom-client';
import type { ConsoleSettings, WebhookSettings } from './config.js';
import type { Queries } from './domain/admin/queries.js';
import type { Keyring } from './domain/auth/keyring.js';
import type { RingBatchers } from './domain/carrier-inbound/ringing.js';
import type { AdPlatforms } from './domain/conversions/platform.js';
import type { SecretBox } from './domain/conversions/secrets.js';
import type { SessionBatcher } from './domain/dni/batcher.js';
import type { RateLimiter } from './domain/rate-limit/limiter.js';
import type { Repositories } from './domain/repositories.js';
import type { FailureTranslator } from './errors.js';
import type { ReadinessCheck } from './http/readiness.js';
import type { RndRefresher } from './workers/rnd-checks.js';

export interface Clock {
  /** Epoch milliseconds. Tests pass a clock they can set. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * What the routes are given. No store: writes go through the domain and its repositories,
 * admin reads through the query ports, both built once over the store by src/wiring.ts.
 */
export interface AppDeps {
  /** The domain's repositories (src/store/repos/index.ts). */
  repos: Repositories;
  /** The admin API's reads (src/store/queries/index.ts). */
  queries: Queries;
  /** Resolves when the store answers (GET /healthz). */
  ping(): Promise<void>;
  /**
   * The store's failures as catalogue errors (src/store/errors.ts): the error handler answers
   * them 503 with Retry-After (or 409) without importing the store.
   */
  storeFailure: FailureTranslator;
  /** DNI opens, batched per process and store (src/domain/dni/batcher.ts). */
  sessions: Pick<SessionBatcher, 'open'>;
  /** Voice webhooks, batched per process, store and organization (src/domain/carrier-inbound/ringing.ts). */
  ringing: Pick<RingBatchers, 'ring'>;
  keyring: Keyring;
  limiter: RateLimiter;
  clock: Clock;
  metrics: Metrics;
  logger: Logger;
  /** Twilio webhook credentials; absent or incomplete, the carrier routes answer 503. */
  twilio?: TwilioSettings | undefined;
  /** What /readyz asks; absent, the store alone (`ping`). */
  readiness?: ReadinessCheck[] | undefined;
  readinessTimeoutMs?: number | undefined;
  /** Reassigned-number checks run after a consent grant; absent: only the schedule runs them. */
  rnd?: Pick<RndRefresher, 'checkSoon'> | undefined;
  /** Absent: the defaults (private targets refused). */
  webhooks?: WebhookSettings | undefined;
  /** Conversion uploads: the secrets key and the platforms (absent: no key, public addresses). */
  conversions?: { box: SecretBox | null; platforms: AdPlatforms } | undefined;
  /** The web console's settings; absent: DEFAULT_CONSOLE_SETTINGS (src/config.ts). */
  console?: ConsoleSettings | undefined;
  /** Routing's weighted draw among buyers of one priority; absent: Math.random. Tests seed it. */
  random?: (() => number) | undefined;
}

export const BODY_LIMIT = 64 * 1024;

/** Time limits of the HTTP layer (src/config.ts reads them; tests pass short ones). */
export interface HttpLimits {
  /** The request line and headers must arrive within this, else 408 and the socket closes. */
  headersTimeoutMs: number;
  /** The whole request (body included) must arrive within this, else 408 and the socket closes. */
  requestTimeoutMs: number;
  /** On close, how long open sockets keep being answered (503) before idle ones are closed. */
  shutdownDrainMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  shutdownDrainMs: 1_000,
};

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route' | 'status'>;
  rateLimited: Counter<'route'>;
  dniSessions: Counter<'campaign_id' | 'outcome'>;
  dniBatchSize: Histogram;
  routingBatchSize: Histogram;
  /** Offers made by routing plans, and calls sent to the fallback by reason (twilio.ts). */
  routingOffers: Counter;
  routingFallbacks: Counter<'reason'>;
  poolExhausted: Counter<'campaign_id' | 'fallback'>;
  outboundTouches: Counter<'status' | 'replayed'>;
  dispatchAttempts: Counter<'carrier' | 'outcome'>;
  webhookAttempts: Counter<'outcome'>;
  webhookEndpointsDisabled: Counter<'reason'>;
  conversionUploads: Counter<'destination' | 'platform' | 'outcome' | 'reason'>;
}

export interface TwilioSettings {
  authToken: string | undefined;
  /** The origin Twilio is configured to call, without a trailing slash. */
  publicBaseUrl: string | undefined;
}
