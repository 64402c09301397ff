import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { lease, sequenced, timestamps, ts } from './columns.js';
import { campaignScope, ownCampaign, ownOrg } from './index.js';

/**
 * Consent history per (organization, contact number): grants and revocations, append-only (a
 * trigger rejects UPDATE and DELETE), so a revocation never erases the grant it voids.
 */
export const consentEvents = pgTable(
  'consent_events',
  {
    ...sequenced(),
    orgId: ownOrg(),
    e164: text('e164').notNull(),
    /** grant | revoked | opt_out | internal_dnc */
    kind: text('kind').notNull(),
    /** Grants only: pewc | pec | ebr. */
    tier: text('tier'),
    /** EBR grants only: transaction (18 months) | inquiry (3 months). */
    ebrBasis: text('ebr_basis'),
    source: text('source'),
    /** When the consent was given, or when the revocation happened. */
    capturedAt: ts('captured_at').notNull(),
    expiresAt: ts('expires_at'),
    evidence: jsonb('evidence').notNull().default(sql`'{}'::jsonb`),
    reason: text('reason'),
    /** Hash of what the event says, so re-running an import adds nothing twice. */
    fingerprint: text('fingerprint').notNull(),
    actor: text('actor').notNull(),
    requestId: text('request_id'),
    recordedAt: ts('recorded_at').notNull(),
  },
  (t) => [
    uniqueIndex('consent_events_id_key').on(t.id),
    index('consent_events_contact_idx').on(t.orgId, t.e164, t.seq),
    uniqueIndex('consent_events_fingerprint_key').on(t.orgId, t.fingerprint),
    index('consent_events_org_seq_idx').on(t.orgId, t.seq),
  ],
);

/** Every decided touch, placed or blocked (dry runs are never stored). */
export const outboundTouches = pgTable(
  'outbound_touches',
  {
    id: text('id').primaryKey(),
    ...campaignScope(),
    toE164: text('to_e164').notNull(),
    channel: text('channel').notNull(),
    /** queued | blocked: the decision, never changed afterwards. */
    status: text('status').notNull(),
    /** Counts toward frequency caps. */
    placed: boolean('placed').notNull(),
    consentBasis: text('consent_basis').notNull(),
    variant: text('variant'),
    cadenceStep: integer('cadence_step'),
    scenarioRef: text('scenario_ref'),
    templateId: text('template_id'),
    dynamicVariables: jsonb('dynamic_variables'),
    leadTimezone: text('lead_timezone'),
    idempotencyKey: text('idempotency_key'),
    reasons: jsonb('reasons').notNull(),
    checks: jsonb('checks').notNull(),
    nextAllowedAt: ts('next_allowed_at'),
    decidedAt: ts('decided_at').notNull(),
    actor: text('actor').notNull(),
    requestId: text('request_id'),
    /** Placed touches only: pending | delivered | failed | unknown. */
    dispatchStatus: text('dispatch_status'),
    attempts: integer('attempts').notNull().default(0),
    carrier: text('carrier'),
    carrierIds: text('carrier_ids').array().notNull().default(sql`'{}'::text[]`),
    lastError: text('last_error'),
    finalizedAt: ts('finalized_at'),
  },
  (t) => [
    index('outbound_touches_placed_idx').on(t.orgId, t.toE164, t.decidedAt).where(sql`${t.placed}`),
    index('outbound_touches_campaign_idx').on(t.orgId, t.campaignId, t.decidedAt),
    index('outbound_touches_org_id_idx').on(t.orgId, t.id),
    ownCampaign('outbound_touches_campaign_fk', t),
  ],
);

/** The durable queue: a job is written in the transaction that places its touch. */
export const dispatchJobs = pgTable(
  'dispatch_jobs',
  {
    id: text('id').primaryKey(),
    touchId: text('touch_id')
      .notNull()
      .references(() => outboundTouches.id),
    orgId: text('org_id').notNull(),
    /** pending | done | dead */
    state: text('state').notNull(),
    attempts: integer('attempts').notNull().default(0),
    runAt: ts('run_at').notNull(),
    /** The visibility timeout. */
    ...lease(),
    lastError: text('last_error'),
    /** What the carrier needs, fixed at decision time (caller id, text, TwiML, recording). */
    payload: jsonb('payload').notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('dispatch_jobs_touch_key').on(t.touchId),
    index('dispatch_jobs_due_idx').on(t.runAt).where(sql`${t.state} = 'pending'`),
    // Retention deletes finished jobs by age (migration 0009).
    index('dispatch_jobs_finished_idx').on(t.updatedAt).where(sql`state <> 'pending'`),
  ],
);

/** One row per hand-over to a carrier; `started` rows left behind mark an unknown outcome. */
export const carrierAttempts = pgTable(
  'carrier_attempts',
  {
    id: text('id').primaryKey(),
    jobId: text('job_id').notNull(),
    touchId: text('touch_id').notNull(),
    orgId: text('org_id').notNull(),
    attempt: integer('attempt').notNull(),
    carrier: text('carrier').notNull(),
    worker: text('worker').notNull(),
    /** started | accepted | failed | retry | unknown | skipped */
    outcome: text('outcome').notNull(),
    carrierId: text('carrier_id'),
    error: text('error'),
    startedAt: ts('started_at').notNull(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('carrier_attempts_job_idx').on(t.jobId, t.attempt),
    index('carrier_attempts_touch_idx').on(t.touchId),
  ],
);

/**
 * The simulated carrier's own ledger (what it "sent"). Like a carrier that honours idempotency
 * keys, a repeated key returns the first message and only bumps `requests`.
 */
export const simulatedCarrierMessages = pgTable(
  'simulated_carrier_messages',
  {
    id: text('id').primaryKey(),
    idempotencyKey: text('idempotency_key').notNull(),
    touchId: text('touch_id').notNull(),
    channel: text('channel').notNull(),
    toE164: text('to_e164').notNull(),
    fromE164: text('from_e164'),
    body: text('body'),
    requests: integer('requests').notNull().default(1),
    createdAt: ts('created_at').notNull(),
    lastRequestAt: ts('last_request_at').notNull(),
  },
  (t) => [uniqueIndex('simulated_carrier_messages_key').on(t.idempotencyKey)],
);

/** `idempotency_key` records of the outbound endpoint, per (organization, campaign), 24 h. */
export const outboundIdempotency = pgTable(
  'outbound_idempotency',
  {
    ...campaignScope(),
    key: text('key').notNull(),
    /** SHA-256 of the canonical JSON of the validated body. */
    requestHash: text('request_hash').notNull(),
    /** pending (a request is deciding) | done (response kept for replay) */
    state: text('state').notNull(),
    /** Random token of the request that holds a pending record. */
    owner: text('owner').notNull(),
    statusCode: integer('status_code'),
    response: text('response'),
    touchId: text('touch_id'),
    startedAt: ts('started_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.campaignId, t.key] }),
    index('outbound_idempotency_expiry_idx').on(t.expiresAt),
  ],
);
