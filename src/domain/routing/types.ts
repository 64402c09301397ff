import type { BuyerStatus, CapName, Fallback, OfferOutcome, Weekday } from './vocabulary.js';

/** `[start, end]` local times "HH:MM", end after start ("24:00" allowed). */
export type Span = readonly [string, string];
/** A day absent is closed; null (no schedule) is always open. */
export type Schedule = Partial<Record<Weekday, readonly Span[]>>;
export type Caps = Partial<Record<CapName, number>>;

export interface Payout {
  /** Decimal string with two places, in the organization's currency. */
  amount: string;
  min_duration_seconds: number;
  duplicate_window_days: number;
}

export interface Buyer {
  id: string;
  orgId: string;
  name: string;
  forwardTo: string;
  timeZone: string;
  schedule: Schedule | null;
  states: string[] | null;
  caps: Caps;
  payout: Payout;
  status: BuyerStatus;
  createdAt: Date;
  updatedAt: Date;
}

/** What each cap counts now, and the live offers (the concurrency cap's count). */
export type Usage = Record<CapName, number>;

export type BuyerChange = Partial<
  Pick<
    Buyer,
    'name' | 'forwardTo' | 'timeZone' | 'schedule' | 'states' | 'caps' | 'payout' | 'status'
  >
>;

export interface Target {
  buyerId: string;
  /** 1 first. */
  priority: number;
  weight: number;
}

export interface Plan {
  campaignId: string;
  targets: Target[];
  ringTimeoutSeconds: number;
  fallback: Fallback;
  updatedAt: Date;
}

/** A target joined to its buyer, as routing reads it for one call. */
export interface Candidate extends Target {
  forwardTo: string;
  timeZone: string;
  schedule: Schedule | null;
  states: string[] | null;
  status: BuyerStatus;
}

/** The calendar periods an offer was counted in (starts, in the buyer's zone). */
export interface Periods {
  hourStart: Date;
  dayStart: Date;
  monthStart: Date;
}

export interface Offer extends Periods {
  id: string;
  orgId: string;
  callId: string;
  seq: number;
  buyerId: string;
  offeredAt: Date;
  endedAt: Date | null;
  /** Null while the offer is live (ringing, or connected). */
  outcome: OfferOutcome | null;
  durationSeconds: number | null;
}

/** An offer with its buyer's payout rules as they stand now (null: the buyer is gone). */
export interface PricedOffer extends Offer {
  payout: Payout | null;
}
