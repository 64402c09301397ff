/**
 * The service's closed sets of words, each defined once. TypeBox unions (`literals` in
 * src/domain/schema.ts), TypeScript types, both OpenAPI documents and the CLI's `choices` derive
 * from these arrays, so a new reason code or event type reaches every published description
 * when it is added here, and no hand-kept copy (an OpenAPI enum, a CLI choice) can fall behind.
 * Imports nothing, so every layer can use it.
 */

/** The channels of an outbound touch. */
export const CHANNELS = ['call', 'sms', 'voicemail'] as const;
export type Channel = (typeof CHANNELS)[number];

/** What a consent grant records and a caller may assert, strongest first (Part A point 1). */
export const CONSENT_BASES = ['pewc', 'pec', 'ebr'] as const;
export type ConsentBasis = (typeof CONSENT_BASES)[number];
/** A contact's standing: a basis, or `none`. */
export const CONSENT_TIERS = [...CONSENT_BASES, 'none'] as const;
export type ConsentTier = (typeof CONSENT_TIERS)[number];
/** How long an `ebr` lasts: a transaction 18 months, an inquiry 3. */
export const EBR_BASES = ['transaction', 'inquiry'] as const;

/** Kinds of consent events: a grant, or one of the revocations. */
export const REVOCATION_KINDS = ['revoked', 'opt_out', 'internal_dnc'] as const;
export type RevocationKind = (typeof REVOCATION_KINDS)[number];
export const CONSENT_EVENT_KINDS = ['grant', ...REVOCATION_KINDS] as const;

/** A campaign's purpose: marketing needs the stronger consent and the DNC scrub. */
export const PURPOSES = ['marketing', 'informational'] as const;
export type Purpose = (typeof PURPOSES)[number];

/** Why a touch is blocked: the `code` of each failing check. */
export const REASON_CODES = [
  'consent_missing',
  'consent_insufficient',
  'consent_revoked',
  'channel_not_allowed',
  'location_unresolved',
  'quiet_hours',
  'frequency_capped',
  'dnc_listed',
  'dnc_list_stale',
  'litigator_listed',
  'reassigned',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

/** A touch as stored, and as a dry run answers it. */
export const TOUCH_STATUSES = ['queued', 'blocked'] as const;
export const TOUCH_DECISIONS = [...TOUCH_STATUSES, 'would_queue', 'would_block'] as const;
/** A placed touch's hand-over to the carrier. */
export const DISPATCH_STATUSES = ['pending', 'delivered', 'failed', 'unknown'] as const;

/** The suppression lists of an organization. */
export const SUPPRESSION_LISTS = [
  'internal',
  'national',
  'national_ca',
  'state',
  'litigator',
] as const;
export type SuppressionList = (typeof SUPPRESSION_LISTS)[number];

/** The rule that attributed a call (docs/attribution.md), in the order they are tried. */
export const ATTRIBUTION_RULES = ['session', 'recent_holder', 'repeat_caller', 'campaign'] as const;
export type AttributionRule = (typeof ATTRIBUTION_RULES)[number];

/** How a DNI session got its number. */
export const SESSION_OUTCOMES = ['sticky', 'allocated', 'shared', 'overflow'] as const;
export type SessionOutcome = (typeof SESSION_OUTCOMES)[number];

/** A buyer's disposition of a call. */
export const DISPOSITIONS = ['success', 'rejected'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

/** API key scopes. */
export const SCOPES = ['enroll', 'execute'] as const;
export type Scope = (typeof SCOPES)[number];

/** The webhook event types (docs/webhooks.md); `*` subscribes to all. */
export const EVENT_TYPES = [
  'call.received',
  'call.completed',
  'call.routed',
  'call.billable',
  'buyer_report.recorded',
  'touch.queued',
  'touch.delivered',
  'touch.failed',
  'consent.revoked',
  'pool.exhausted',
  'conversion.upload_failed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** A webhook delivery's state, and the outcome of one attempt. */
export const DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export const ATTEMPT_OUTCOMES = ['delivered', 'failed', 'gone'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];
