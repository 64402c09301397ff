import type { PlacedTouch } from '../compliance/index.js';
import type { ConsentFacts } from '../consents/consents.js';
import type { AuditEntry, Executor, Transaction, UnitOfWork } from '../ports.js';
import type { SuppressionRepository } from '../suppression/ports.js';
import type { WebhookEmitters } from '../webhooks/ports.js';

/** What a touch decision records, in its transaction (touches.ts, the opt-out confirmation). */
export interface TouchRecorder {
  /** The (organization, contact) lock every touch decision takes, until the transaction ends. */
  lockContact(tx: Transaction, orgId: string, e164: string): Promise<void>;
  /**
   * The touch, its dispatch job, the audit line and the idempotency completion in one
   * statement. False when the idempotency record was taken over by another request meanwhile:
   * the caller must roll back.
   */
  recordDecision(tx: Transaction, d: Decision): Promise<boolean>;
}

/** `POST /tracking/campaigns/{campaign_code}/outbound` (touches.ts). */
export interface TouchRepos extends UnitOfWork {
  touches: TouchRepository;
  suppression: Pick<SuppressionRepository, 'suppressionFacts'>;
  events: Pick<WebhookEmitters, 'emitTouchQueued'>;
}

/** Touches, the contact lock and idempotency keys: `repos.touches`. */
export interface TouchRepository extends TouchRecorder {
  findCampaign(
    ex: Executor,
    orgId: string,
    code: string,
  ): Promise<{ id: string; config: Record<string, unknown> } | null>;
  /**
   * Takes the contact lock until the transaction ends, then reads consent and placed touches in
   * one round trip. Outside a transaction the lock lasts the statement only.
   */
  contactState(ex: Executor, orgId: string, e164: string, since: Date): Promise<ContactState>;
  /**
   * Claims a key for one request in a short transaction of its own, committed before the
   * decision runs, so a concurrent duplicate finds it pending instead of deciding twice.
   */
  reserveKey(
    ex: Executor,
    scope: IdempotencyScope,
    claim: { hash: string; owner: string; nowMs: number; ttlMs: number; staleMs: number },
  ): Promise<Reservation>;
  /** After a failed decision, so a retry need not wait for the pending record to go stale. */
  releaseKey(ex: Executor, scope: IdempotencyScope, owner: string): Promise<void>;
}

/** The touch row a decision writes. */
export interface NewTouch {
  id: string;
  orgId: string;
  campaignId: string;
  toE164: string;
  channel: string;
  status: string;
  placed: boolean;
  consentBasis: string;
  variant?: string | null;
  cadenceStep?: number | null;
  scenarioRef?: string | null;
  templateId?: string | null;
  dynamicVariables?: unknown;
  leadTimezone?: string | null;
  idempotencyKey?: string | null;
  reasons: unknown;
  checks: unknown;
  nextAllowedAt?: Date | null;
  decidedAt: Date;
  actor: string;
  requestId?: string | null;
  dispatchStatus?: string | null;
}

export interface ContactState {
  consent: ConsentFacts[];
  /** Placed touches decided after `since` (later ones included: they were placed). */
  history: PlacedTouch[];
}

export interface Decision {
  touch: NewTouch;
  /** The dispatch job's payload, for a placed touch. */
  jobPayload: unknown | null;
  audit: AuditEntry;
  idempotency: {
    scope: IdempotencyScope;
    owner: string;
    statusCode: number;
    response: string;
  } | null;
}

export interface IdempotencyScope {
  orgId: string;
  campaignId: string;
  key: string;
}

export type Reservation =
  | { kind: 'reserved' }
  | { kind: 'mismatch' }
  | { kind: 'in_flight' }
  | { kind: 'done'; statusCode: number; response: string };
