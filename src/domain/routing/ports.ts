import type { AuditEntry, AuditLog, Executor, Transaction, UnitOfWork } from '../ports.js';
import type { Buyer, BuyerChange, Candidate, Offer, Plan, Usage } from './types.js';
import type { Fallback, FallbackReason, OfferOutcome } from './vocabulary.js';

/** Buyers of one organization: `repos.buyers`. */
export interface BuyerRepository {
  /** The buyer and its usage row (every count zero). */
  insertBuyer(ex: Executor, buyer: Buyer): Promise<void>;
  getBuyer(ex: Executor, orgId: string, id: string): Promise<Buyer | null>;
  /** By id; `after`: the last id of the previous page. `limit + 1` rows at most. */
  listBuyers(ex: Executor, orgId: string, limit: number, after?: string): Promise<Buyer[]>;
  updateBuyer(
    ex: Executor,
    orgId: string,
    id: string,
    change: BuyerChange,
    at: Date,
  ): Promise<Buyer | null>;
  /** What each buyer's caps count at `now`, by buyer id (ids of other organizations: absent). */
  usageOf(
    ex: Executor,
    orgId: string,
    ids: readonly string[],
    now: Date,
  ): Promise<Map<string, Usage>>;
  /** The ids among `ids` that are not buyers of the organization. */
  unknownBuyers(ex: Executor, orgId: string, ids: readonly string[]): Promise<string[]>;
}

export interface PlanSettings {
  ringTimeoutSeconds: number;
  fallback: Fallback;
}

/** A campaign's plan: its settings and its targets' buyers, in priority order. */
export interface RoutingPlan {
  settings: PlanSettings;
  candidates: Candidate[];
}

/** The next offer of a call: the buyers to try in order, and where it goes if none takes it. */
export interface NewOffer {
  /** The offer's id, and its place among the call's offers. */
  id: string;
  seq: number;
  orgId: string;
  callId: string;
  at: Date;
  buyers: readonly string[];
  fallback: Fallback;
  reason: FallbackReason;
  /** The audit line's actor and request. */
  actor: string;
  requestId: string | null;
}

export interface OfferEnd {
  outcome: OfferOutcome;
  durationSeconds: number | null;
  endedAt: Date;
}

/** What an ended offer's place under its buyer's caps does (docs/routing.md, "Cap counting"). */
export type PlaceMove =
  /** Not answered: it stops counting against every cap. */
  | 'give'
  /** Answered, and its leg has ended: it stops counting against the concurrency cap only. */
  | 'end_live'
  /**
   * Closed as canceled (its place given back), then reported answered: it counts again in each
   * of its periods that is still the one counted, and in the total; not as live.
   */
  | 'retake';

export interface OfferEndWrite {
  offer: Offer;
  end: OfferEnd;
  /** null: the offer is live; 'canceled': a canceled offer takes the outcome reported late. */
  from: 'canceled' | null;
  /** Answered: the call's buyer, and whether it is billable and its payout. */
  answer: { buyerId: string; billable: boolean; payout: string } | null;
  audit: AuditEntry;
  place: PlaceMove | null;
}

/** Routing plans, offers and the places they take: `repos.routing`. */
export interface RoutingRepository {
  getPlan(ex: Executor, orgId: string, campaignId: string): Promise<Plan | null>;
  /** Replaces the campaign's plan and its targets. */
  putPlan(tx: Transaction, orgId: string, plan: Plan): Promise<void>;
  /** The campaigns' plans with their targets joined to their buyers, by campaign id. */
  plans(
    ex: Executor,
    campaigns: readonly { orgId: string; campaignId: string }[],
  ): Promise<Map<string, RoutingPlan>>;
  /**
   * Offers each call to the first of its buyers, in order, that is active and under every cap
   * at `at`: counts the offer against that buyer's caps and stores it (with the periods it was
   * counted in) and its audit line; a call none of them takes goes to its fallback, with its
   * audit line. Its buyer for each call, null for the fallback. One statement, which locks the
   * usage rows of every buyer named: the last statement of its transaction, which it commits
   * (on PostgreSQL the `commit` goes with it, one round trip), so the rows stay locked only
   * until then. Nothing may follow it in the transaction but the transaction's end.
   */
  offerFirst(tx: Transaction, offers: readonly NewOffer[]): Promise<(string | null)[]>;
  /** The call's offers in the order made. */
  offersOfCall(ex: Executor, orgId: string, callId: string): Promise<Offer[]>;
  /**
   * Ends a live offer, or (`from` 'canceled') turns a canceled one into the outcome the carrier
   * reported late; answered, the call gets its buyer, billable and payout; then its audit line
   * and, unless `place` is null, the move of its place: one statement, so a Dial action costs
   * one round trip for all its writes. False, and nothing written, if the offer was not in that
   * state any more. With `place`, the buyer's usage row stays locked until the commit: callers
   * make it the last statement of their transaction, or pass null and call movePlace last.
   */
  recordOfferEnd(tx: Transaction, w: OfferEndWrite): Promise<boolean>;
  /** Moves an ended offer's place under its buyer's caps (last statement of the transaction). */
  movePlace(tx: Transaction, offer: Offer, move: PlaceMove): Promise<void>;
  /** Whether the caller was billable to the buyer in [since, before), another call than `callId`. */
  billableWithin(
    ex: Executor,
    orgId: string,
    q: { buyerId: string; fromNumber: string; since: Date; before: Date; callId: string },
  ): Promise<boolean>;
}

export interface BuyerRepos extends UnitOfWork {
  buyers: BuyerRepository;
  audit: AuditLog;
}
