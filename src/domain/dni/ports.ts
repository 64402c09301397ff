import type { Executor } from '../ports.js';
import type { SessionOutcome } from '../vocabulary.js';
import type { LandingParams } from './landing-url.js';

/** What the DNI domain needs from the store (src/store/repos/dni.ts implements it). */

export type { SessionOutcome };

export interface OpenedSession {
  sessionId: string;
  trackingNumber: string;
  expiresAt: Date;
  outcome: SessionOutcome;
  campaignId: string;
}

export interface SessionAttributes extends Omit<LandingParams, 'gclid'> {
  gclid?: string | null;
  fbc?: string | null;
  fbp?: string | null;
  landing_url?: string | null;
}

/** One DNI request of a batch. */
export interface SessionOpenRequest {
  orgId: string;
  campaignCode: string;
  visitorId: string;
  now: Date;
  newSessionId: string;
  attrs: SessionAttributes;
}

/** A request's own failure: its campaign is not the organization's, or has no number at all. */
export interface SessionOpenFailure {
  outcome: 'campaign_not_found' | 'no_numbers';
}
export type SessionOpenResult = OpenedSession | SessionOpenFailure;

export interface SessionStore {
  /**
   * Opens or renews the sessions of many requests in one transaction that
   * commits before it resolves: one result per request, in order; each request
   * sees those before it.
   */
  openSessions(requests: readonly SessionOpenRequest[]): Promise<SessionOpenResult[]>;
  /**
   * True when a failed batch says nothing of the store's health (a bug or bad
   * data in one request): its requests are then retried one by one, so only the
   * culprit fails. False for a lost connection, a shutdown, a full disk: every
   * request of the batch fails with it (503).
   */
  retryAlone(err: unknown): boolean;
}

/** What the pool sizing gauges read (pool-gauges.ts): `repos.poolSizing`. */
export interface PoolSizingRepository {
  /** Every campaign with a pool. */
  campaignsWithPool(ex: Executor): Promise<{ id: string; org_id: string; code: string }[]>;
  /** Reads a campaign's pool, sessions and calls in [since, now]. */
  observePool(ex: Executor, campaignId: string, since: Date, now: Date): Promise<PoolObservation>;
}

export interface PoolSizingRepos {
  readonly db: Executor;
  poolSizing: PoolSizingRepository;
}

/** What one campaign's own rows say about its pool over a window (all counts in the window). */
export interface PoolObservation {
  numbers: number;
  hasOverflow: boolean;
  heldNow: number;
  /** One row per hour of the window, oldest first: new sessions and peak concurrent held numbers. */
  hours: { hour: Date; arrivals: number; peakHeld: number }[];
  sessions: { allocated: number; sticky: number; shared: number; overflow: number };
  /**
   * Mean seconds a session holds its number, creation to (slid) expiry; a live
   * session counts with its current expiry, which later requests may extend.
   */
  meanHoldSeconds: number | null;
  calls: {
    total: number;
    holder: number;
    grace: number;
    repeatCaller: number;
    campaignOnly: number;
    /**
     * Calls that found their number held by several live sessions: the call's own flag, set when
     * it was attributed. A session flagged later (its number shared after the call) does not
     * reach back to calls it already had.
     */
    onSharedNumber: number;
  };
  /** Seconds after the holder's expiry of every call attributed by the grace rule. */
  graceLateness: number[];
  /** Mean seconds from the session's creation of the calls attributed by the holder rule; null: none. */
  liveCallDelaySeconds: number | null;
}

/** A DNI session's attribution facts as the reads give them: visitor, landing URL, click ids, UTM. */
export interface SessionRow {
  visitorId: string;
  landingUrl: string | null;
  gclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
  fbclid: string | null;
  fbc: string | null;
  fbp: string | null;
  msclkid: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
}
