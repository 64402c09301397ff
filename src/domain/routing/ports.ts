import type { AuditEntry, AuditLog, Executor, Transaction, UnitOfWork } from '../ports.js';
import type { Buyer, BuyerChange, Candidate, Offer, Periods, Plan, Usage } from './types.js';
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

export interface OfferEnd {
  outcome: OfferOutcome;
  durationSeconds: number | null;
  endedAt: Date;
}

/** Routing plans, offers and the places they take: `repos.routing`. */
export interface RoutingRepository {
  getPlan(ex: Executor, orgId: string, campaignId: string): Promise<Plan | null>;
  /** Replaces the campaign's plan and its targets. */
  putPlan(tx: Transaction, orgId: string, plan: Plan): Promise<void>;
  /** The campaign's plan and its targets joined to their buyers; null: no plan. */
  candidates(
    ex: Executor,
    orgId: string,
    campaignId: string,
  ): Promise<{ settings: PlanSettings; candidates: Candidate[] } | null>;
  /**
   * Counts one offer against the buyer's caps if the buyer is active and under every cap at
   * `now` and, when it did, stores the offer (with the periods it was counted in) and its audit
   * line: one statement, which locks the buyer's usage row. Callers make it the last statement
   * of their transaction, so the row stays locked only until the commit that follows. Null: a
   * cap is reached or the buyer is paused, and nothing was written or locked.
   */
  takePlace(
    tx: Transaction,
    offer: Pick<Offer, 'id' | 'orgId' | 'callId' | 'seq' | 'buyerId' | 'offeredAt'>,
    audit: AuditEntry,
  ): Promise<Periods | null>;
  /** An offer not answered: it stops counting against every cap. */
  givePlace(tx: Transaction, offer: Offer): Promise<void>;
  /** An answered offer's leg ended: it stops counting against the concurrency cap only. */
  endLive(tx: Transaction, buyerId: string): Promise<void>;
  /** The call's offers in the order made. */
  offersOfCall(ex: Executor, orgId: string, callId: string): Promise<Offer[]>;
  /** Ends a live offer; false if it had ended already. */
  endOffer(tx: Transaction, offerId: string, end: OfferEnd): Promise<boolean>;
  setAnswered(
    tx: Transaction,
    callId: string,
    answer: { buyerId: string; billable: boolean; payout: string },
  ): Promise<void>;
  setFallback(
    tx: Transaction,
    callId: string,
    fallback: Fallback,
    reason: FallbackReason,
  ): Promise<void>;
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
