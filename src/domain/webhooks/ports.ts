import type { Attribution } from '../dni/attribution.js';
import type { Executor } from '../ports.js';
import type { AttemptOutcome } from '../vocabulary.js';

/**
 * One method per event type: each reads what its payload needs and writes the event in the
 * caller's transaction. The event id, or null when no endpoint of the organization wants it.
 */
export interface WebhookEmitters {
  /** How many pool numbers the campaign has (the pool.exhausted alert's payload). */
  poolSizeOf(ex: Executor, campaignId: string): Promise<number>;
  emitCallReceived(ex: Executor, c: ReceivedCall, at: Date): Promise<string | null>;
  emitCallCompleted(ex: Executor, callId: string, at: Date): Promise<string | null>;
  /** call.routed: one offer of a call ended with its outcome. */
  emitCallRouted(ex: Executor, offer: EndedOffer, at: Date): Promise<string | null>;
  /** call.billable: the call's payout was fixed and it is billable (null: it is not). */
  emitCallBillable(ex: Executor, callId: string, at: Date): Promise<string | null>;
  emitBuyerReport(ex: Executor, r: RecordedReport, at: Date): Promise<string | null>;
  emitTouchQueued(ex: Executor, t: TouchFacts, at: Date): Promise<string | null>;
  emitTouchFinal(ex: Executor, t: TouchFacts, f: TouchFinal, at: Date): Promise<string | null>;
  emitConsentRevoked(ex: Executor, r: Revocation, at: Date): Promise<string | null>;
  /** At most one per campaign per `intervalMs`, across processes. */
  emitPoolExhausted(ex: Executor, p: Exhaustion, at: Date): Promise<string | null>;
}

/** What the pool.exhausted alert reads and writes (pool-alerts.ts). */
export interface PoolAlertRepos {
  readonly db: Executor;
  events: Pick<WebhookEmitters, 'emitPoolExhausted' | 'poolSizeOf'>;
}

/** The delivery worker's outbox (worker.ts): `repos.deliveries`. */
export interface DeliveryRepository {
  /** Leases due deliveries, at most `perEndpoint` in flight per endpoint across workers. */
  claimDeliveries(ex: Executor, c: DeliveryClaim): Promise<ClaimedDelivery[]>;
  /**
   * Records an attempt and moves the delivery and the endpoint's failure run on, in one
   * transaction, fenced by the lease. Says why the endpoint was disabled, if it was.
   */
  recordAttempt(
    ex: Executor,
    d: ClaimedDelivery,
    worker: string,
    a: AttemptRecord,
    rule: DisableRule,
    nowMs: number,
  ): Promise<{ kept: boolean; disabled: string | null }>;
}

export interface ReceivedCall {
  callId: string;
  orgId: string;
  campaignId: string;
  campaignCode: string;
  trackingNumber: string;
  caller: string;
  startedAt: Date;
  attribution: Attribution;
  carrier: { name: string; callSid: string } | null;
}

export interface RecordedReport {
  orgId: string;
  eventId: string;
  reportId: string;
  callId: string;
  campaignCode: string;
  disposition: string;
  notes: string | null;
}

export interface TouchFacts {
  touchId: string;
  orgId: string;
  campaignId: string;
  toE164: string;
  channel: string;
  consentBasis: string;
  variant: string | null;
  cadenceStep: number | null;
}

export interface TouchFinal {
  /** delivered: the carrier accepted it; failed or unknown: touch.failed. */
  dispatchStatus: 'delivered' | 'failed' | 'unknown';
  attempts: number;
  carrier: string;
  carrierIds: string[];
  lastError: string | null;
}

export interface Revocation {
  orgId: string;
  consentEventId: string;
  e164: string;
  kind: string;
  source: string | null;
  reason: string | null;
  actor: string;
  revokedAt: Date;
}

export interface Exhaustion {
  orgId: string;
  campaignId: string;
  campaignCode: string;
  fallback: 'shared' | 'overflow';
  trackingNumber: string;
  poolSize: number;
  intervalMs: number;
}

export interface ClaimedDelivery {
  deliveryId: string;
  eventId: string;
  endpointId: string;
  orgId: string;
  /** 1 for the first attempt. */
  attempt: number;
  body: string;
  url: string;
  secrets: string[];
}

export interface DeliveryClaim {
  nowMs: number;
  leaseMs: number;
  /** How many to take now (the worker's free slots). */
  limit: number;
  /** In flight per endpoint, counting those other workers hold. */
  perEndpoint: number;
  worker: string;
}

export interface AttemptRecord {
  outcome: AttemptOutcome;
  statusCode: number | null;
  latencyMs: number;
  responseHead: string | null;
  error: string | null;
  startedAt: Date;
  /** Where the delivery goes next. */
  next: { state: 'delivered' } | { state: 'pending'; retryAtMs: number } | { state: 'failed' };
}

export interface DisableRule {
  afterFailures: number;
  afterMs: number;
}

/** An offer of a call to a buyer, ended (docs/routing.md). */
export interface EndedOffer {
  id: string;
  orgId: string;
  callId: string;
  seq: number;
  buyerId: string;
  offeredAt: Date;
  endedAt: Date;
  outcome: string;
  durationSeconds: number | null;
}
