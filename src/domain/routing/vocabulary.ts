/** The words of buyers and routing (contract §11); every schema derives from these. */

export const BUYER_STATUSES = ['active', 'paused'] as const;
export type BuyerStatus = (typeof BUYER_STATUSES)[number];

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const CAP_NAMES = ['hourly', 'daily', 'monthly', 'total', 'concurrency'] as const;
export type CapName = (typeof CAP_NAMES)[number];

export const OFFER_OUTCOMES = ['answered', 'busy', 'no_answer', 'failed', 'canceled'] as const;
export type OfferOutcome = (typeof OFFER_OUTCOMES)[number];

export const FALLBACKS = ['forward_to', 'hangup'] as const;
export type Fallback = (typeof FALLBACKS)[number];

/**
 * Why a routed call went to the fallback: no target was eligible when it arrived; every
 * eligible target had been offered; or five offers were made.
 */
export const FALLBACK_REASONS = ['no_target', 'no_more_targets', 'max_offers'] as const;
export type FallbackReason = (typeof FALLBACK_REASONS)[number];

/** At most this many offers per call, then the fallback. */
export const MAX_OFFERS = 5;
export const RING_TIMEOUT_DEFAULT = 20;
export const RING_TIMEOUT_MIN = 5;
export const RING_TIMEOUT_MAX = 60;
export const WEIGHT_MIN = 1;
export const WEIGHT_MAX = 100;
