import type { LandingParams } from './landing-url.js';

/** What the DNI domain needs from the store (src/store/repos/dni.ts implements it). */

export type SessionOutcome = 'sticky' | 'allocated' | 'shared' | 'overflow';

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
