import type { AuditLog, Executor, UnitOfWork } from '../ports.js';
import type { ConsentEvent, NewConsentEvent } from './events.js';

export interface Recorder {
  orgId: string;
  actor: string;
  requestId: string | null;
  at: Date;
}

/** Where consent events are appended, with their audit lines (consents.ts, import.ts). */
export interface ConsentLog {
  consents: ConsentRepository;
  audit: AuditLog;
}

/** Consent events: `repos.consents`. */
export interface ConsentRepository {
  /**
   * Appends events; one already on file (same fingerprint) is skipped. Returns the ids of the
   * events actually added; every revocation among them writes `consent.revoked` in the same
   * transaction.
   */
  appendConsentEvents(
    ex: Executor,
    by: Recorder,
    events: readonly NewConsentEvent[],
  ): Promise<string[]>;
  /** A contact's events, oldest first. */
  contactHistory(ex: Executor, orgId: string, e164: string): Promise<ConsentEvent[]>;
}

export interface ConsentRepos extends UnitOfWork, ConsentLog {}
