import { and, eq, sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { sequenced, ts } from './columns.js';

const createdAt = () => ts('created_at').notNull().defaultNow();
/** The first tables' `created_at` and `updated_at`: the database clock, unless the app says. */
const timestampsDefaultNow = () => ({
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
/**
 * Set by a trigger from the database clock on every insert and update, so
 * other processes can poll for changes without trusting any app clock
 * (src/store/repos/keyring-sync.ts). `updated_at` is the app's own record.
 */
const changedAt = () => ts('changed_at').notNull().defaultNow();

export const orgs = pgTable('orgs', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  trackingEnabled: boolean('tracking_enabled').notNull().default(false),
  /** Null: the service default (300). */
  dniRateLimitPerMinute: integer('dni_rate_limit_per_minute'),
  /** Replies that revoke consent besides STOP and the other standard words. */
  optOutPhrases: text('opt_out_phrases').array().notNull().default(sql`'{}'::text[]`),
  /** IANA name: the zone of every report bucket (docs/reporting.md). */
  timeZone: text('time_zone').notNull().default('UTC'),
  /** Ask once (the FCC's clarification text) before an ambiguous reply revokes; off: revoke. */
  optOutClarification: boolean('opt_out_clarification').notNull().default(false),
  /** ISO 3166 alpha-2: the country a number typed without its country code is read in. */
  phoneCountry: text('phone_country').notNull().default('US'),
  /** ISO 4217: the currency of every buyer payout and of revenue. */
  currency: text('currency').notNull().default('USD'),
  ...timestampsDefaultNow(),
  changedAt: changedAt(),
});

/** `org_id`, a foreign key to the organization. */
export const ownOrg = () =>
  text('org_id')
    .notNull()
    .references(() => orgs.id);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    orgId: ownOrg(),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    keyHash: text('key_hash').notNull(),
    /** First characters of the key, so an operator can tell keys apart. */
    keyPrefix: text('key_prefix').notNull(),
    scopes: text('scopes').array().notNull(),
    label: text('label'),
    expiresAt: ts('expires_at'),
    revokedAt: ts('revoked_at'),
    /** The key that replaced this one by rotation. */
    rotatedTo: text('rotated_to'),
    /**
     * A key bound to a buyer (buyers.id, a foreign key in migration 0060) posts buyer reports on
     * the calls that buyer answered, and nothing else.
     */
    buyerId: text('buyer_id'),
    ...timestampsDefaultNow(),
    changedAt: changedAt(),
  },
  (t) => [
    uniqueIndex('api_keys_key_hash_key').on(t.keyHash),
    index('api_keys_org_idx').on(t.orgId),
    index('api_keys_changed_idx').on(t.changedAt),
  ],
);

export const campaigns = pgTable(
  'campaigns',
  {
    id: text('id').primaryKey(),
    orgId: ownOrg(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    forwardTo: text('forward_to'),
    sessionTtlSeconds: integer('session_ttl_seconds').notNull().default(1800),
    reportWindowDays: integer('report_window_days').notNull().default(30),
    config: jsonb('config').notNull().default(sql`'{}'::jsonb`),
    /** Pool numbers in the campaign, kept by the tracking_numbers triggers (migration 0017). */
    poolSize: integer('pool_size').notNull().default(0),
    /** No pool number is free before this (set by a search that found none; cleared on pool changes). */
    poolFullUntil: ts('pool_full_until'),
    ...timestampsDefaultNow(),
  },
  (t) => [
    uniqueIndex('campaigns_org_code_key').on(t.orgId, t.code),
    // The target of the (campaign, organization) foreign keys (migration 0016).
    unique('campaigns_id_org_key').on(t.id, t.orgId),
  ],
);

/**
 * `org_id` and `campaign_id` of a row that belongs to one campaign of one organization; the
 * tables that can, tie the two together with `ownCampaign`.
 */
export const campaignScope = () => ({
  orgId: text('org_id').notNull(),
  campaignId: text('campaign_id').notNull(),
});

/**
 * A row's campaign, of the row's own organization (migration 0016): for
 * sessions, calls, touches and report events.
 */
export const ownCampaign = (name: string, t: { campaignId: AnyPgColumn; orgId: AnyPgColumn }) =>
  foreignKey({
    name,
    columns: [t.campaignId, t.orgId],
    foreignColumns: [campaigns.id, campaigns.orgId],
  });

/**
 * Every number the service answers for, pool or overflow. A number belongs to
 * one campaign of one organization, so an inbound call maps to one campaign.
 */
export const trackingNumbers = pgTable(
  'tracking_numbers',
  {
    e164: text('e164').primaryKey(),
    orgId: ownOrg(),
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaigns.id),
    /** 'pool' numbers are handed out one visitor at a time; 'overflow' is shared by design. */
    role: text('role').notNull().default('pool'),
    /** The session that took the number last (dni_open_sessions); the admin number list shows it. */
    heldBy: text('held_by'),
    /** Expiry of the latest live holder; the number is free once this has passed. */
    heldUntil: ts('held_until'),
    lastAssignedAt: ts('last_assigned_at'),
    /** Pool numbers only: 0 .. pool size - 1, dense (kept so by triggers); the clock's position. */
    slot: integer('slot'),
    createdAt: createdAt(),
  },
  // held_until and last_assigned_at are not indexed, so taking a number is a
  // HOT update; the clock walks the slots (migration 0017, fill factor 50).
  (t) => [
    index('tracking_numbers_slot_idx').on(t.campaignId, t.slot).where(sql`role = 'pool'`),
    index('tracking_numbers_overflow_idx').on(t.campaignId).where(sql`role = 'overflow'`),
  ],
);

/**
 * Whose number is this (migration 0030): one row per tracking number, kept by the trigger
 * number_owners_sync. The inbound paths find a number's organization here (docs/scaling.md).
 */
export const numberOwners = pgTable('number_owners', {
  e164: text('e164').primaryKey(),
  /** No foreign key: under Citus a reference table cannot point at the distributed orgs. */
  orgId: text('org_id').notNull(),
});

/** A number joined to its owner row: by organization and number (one shard under Citus). */
export const ownedNumber = () =>
  and(eq(trackingNumbers.orgId, numberOwners.orgId), eq(trackingNumbers.e164, numberOwners.e164));

export const dniSessions = pgTable(
  'dni_sessions',
  {
    id: text('id').primaryKey(),
    ...campaignScope(),
    visitorId: text('visitor_id').notNull(),
    trackingNumber: text('tracking_number').notNull(),
    /** allocated | shared | overflow */
    kind: text('kind').notNull(),
    ambiguous: boolean('ambiguous').notNull().default(false),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    hits: integer('hits').notNull().default(1),
    gclid: text('gclid'),
    fbc: text('fbc'),
    fbp: text('fbp'),
    landingUrl: text('landing_url'),
    fbclid: text('fbclid'),
    msclkid: text('msclkid'),
    gbraid: text('gbraid'),
    wbraid: text('wbraid'),
    utmSource: text('utm_source'),
    utmMedium: text('utm_medium'),
    utmCampaign: text('utm_campaign'),
    utmTerm: text('utm_term'),
    utmContent: text('utm_content'),
  },
  (t) => [
    index('dni_sessions_visitor_live_idx').on(t.campaignId, t.visitorId, t.expiresAt),
    index('dni_sessions_number_idx').on(t.trackingNumber, t.createdAt),
    // A share flags the number's live sessions: read by number and expiry (migration 0031).
    index('dni_sessions_unflagged_idx').on(t.trackingNumber, t.expiresAt).where(sql`NOT ambiguous`),
    // Also INCLUDE (tracking_number, expires_at, kind, hits), which Drizzle cannot say
    // (migration 0028): pool health reads a campaign's window from the index alone.
    index('dni_sessions_window_idx').on(t.campaignId, t.createdAt),
    // Sessions held longer than a day, which pool health reads apart (migration 0028).
    index('dni_sessions_long_idx')
      .on(t.campaignId, t.expiresAt)
      .where(sql`expires_at - created_at > interval '1 day'`),
    ownCampaign('dni_sessions_campaign_fk', t),
  ],
);

export const calls = pgTable(
  'calls',
  {
    id: text('id').primaryKey(),
    ...campaignScope(),
    dniSessionId: text('dni_session_id'),
    trackingNumber: text('tracking_number').notNull(),
    fromNumber: text('from_number').notNull(),
    startedAt: ts('started_at').notNull(),
    /** session | recent_holder | repeat_caller | campaign */
    attribution: text('attribution').notNull(),
    ambiguous: boolean('ambiguous').notNull().default(false),
    /**
     * The attributing session's creation and expiry as they stood when the call was recorded
     * (attribution session or recent_holder; else null): pool sizing's live-call delay and grace
     * lateness, read without a lookup of each call's session (migration 0029).
     */
    sessionCreatedAt: ts('session_created_at'),
    sessionExpiresAt: ts('session_expires_at'),
    /** 'twilio' for a carrier webhook; null for a call recorded through the admin API. */
    carrier: text('carrier'),
    /** The carrier's id for the call (Twilio CallSid): status callbacks find the call by it. */
    carrierCallSid: text('carrier_call_sid'),
    /** The carrier's latest call status (ringing, in-progress, completed, busy, …). */
    status: text('status'),
    durationSeconds: integer('duration_seconds'),
    endedAt: ts('ended_at'),
    /** The latest buyer report's disposition (success | rejected); null until one arrives. */
    disposition: text('disposition'),
    dispositionEventId: text('disposition_event_id'),
    dispositionAt: ts('disposition_at'),
    /** The buyer who answered (routing, docs/routing.md); null: none did, or no routing. */
    buyerId: text('buyer_id'),
    /** Set when the answering buyer's leg ends; null until then, or without a buyer. */
    billable: boolean('billable'),
    /** The buyer's payout for this call, fixed with `billable` ("0.00" when not billable). */
    payout: numeric('payout', { precision: 12, scale: 2 }),
    /** Where routing sent the call when no buyer took it: forward_to | hangup. */
    fallback: text('fallback'),
    /** no_target (none eligible at first) | no_more_targets | max_offers */
    fallbackReason: text('fallback_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    index('calls_org_campaign_idx').on(t.orgId, t.campaignId, t.startedAt),
    index('calls_caller_idx').on(t.campaignId, t.fromNumber, t.startedAt),
    uniqueIndex('calls_carrier_call_sid_key').on(t.carrierCallSid),
    index('calls_org_id_idx').on(t.orgId, t.id),
    index('calls_org_started_idx').on(t.orgId, t.startedAt, t.id),
    // Retention keeps a session a call points at (migration 0009).
    index('calls_dni_session_idx').on(t.dniSessionId).where(sql`dni_session_id IS NOT NULL`),
    // The duplicate-window check of billable calls (migration 0060).
    index('calls_buyer_caller_idx').on(t.buyerId, t.fromNumber, t.startedAt).where(sql`billable`),
    ownCampaign('calls_campaign_fk', t),
  ],
);

/** Append-only: a trigger in the migrations rejects UPDATE and DELETE. */
export const auditLog = pgTable(
  'audit_log',
  {
    ...sequenced(),
    orgId: text('org_id'),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    detail: jsonb('detail').notNull().default(sql`'{}'::jsonb`),
    requestId: text('request_id'),
    at: ts('at').notNull(),
  },
  (t) => [index('audit_log_org_idx').on(t.orgId, t.seq)],
);
