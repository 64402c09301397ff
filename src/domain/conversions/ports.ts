import type { OrgRepository } from '../admin/ports.js';
import type { AuditLog, Executor, Transaction, UnitOfWork } from '../ports.js';
import type { CallSubject, UploadFacts } from './facts.js';
import type { RetractShape } from './retractability.js';
import type { Platform, ReasonCode, UploadKind, UploadStatus } from './vocabulary.js';
import type { UploadClaims } from './worker-ports.js';

export interface Trigger {
  event: 'buyer_success' | 'answered_call';
  /** answered_call: the least duration that counts. */
  min_seconds?: number;
}

export interface Money {
  amount: number;
  currency: string;
}

export interface Destination {
  id: string;
  orgId: string;
  platform: Platform;
  name: string;
  /** Campaign codes; null: every campaign of the organization. */
  campaigns: string[] | null;
  trigger: Trigger;
  value: Money | null;
  settings: Record<string, string>;
  /** Sealed with the SecretBox; opened only by the worker and the test command. */
  secrets: string;
  secretsMask: Record<string, string>;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type DestinationChange = Partial<
  Pick<
    Destination,
    'name' | 'campaigns' | 'trigger' | 'value' | 'settings' | 'secrets' | 'secretsMask' | 'enabled'
  >
> & { updatedAt: Date };

/** What the destination services take (destinations.ts, key-check.ts). */
export interface DestinationRepos extends UnitOfWork {
  destinations: DestinationRepository;
  audit: AuditLog;
  orgs: Pick<OrgRepository, 'findOrg'>;
}

/** Conversion destinations (admin): `repos.destinations`. */
export interface DestinationRepository {
  getDestination(ex: Executor, orgId: string, id: string): Promise<Destination | null>;
  listDestinations(ex: Executor, orgId: string): Promise<Destination[]>;
  insertDestination(ex: Executor, d: Destination): Promise<Destination>;
  updateDestination(
    ex: Executor,
    orgId: string,
    id: string,
    c: DestinationChange,
  ): Promise<Destination | null>;
  deleteDestination(ex: Executor, orgId: string, id: string): Promise<boolean>;
  /** Which of these codes are not campaigns of the organization. */
  unknownCampaignCodes(ex: Executor, orgId: string, codes: readonly string[]): Promise<string[]>;
  /** Every stored sealed secret (start-up checks the key and rewraps old ones). */
  allSealedSecrets(ex: Executor): Promise<{ id: string; secrets: string }[]>;
  setSealedSecrets(ex: Executor, id: string, secrets: string): Promise<void>;
  /** Every enabled destination's platform and settings (which API versions are in use). */
  enabledPlatformSettings(
    ex: Executor,
  ): Promise<{ platform: Platform; settings: Record<string, string> }[]>;
}

export interface NewUpload {
  id: string;
  orgId: string;
  destinationId: string;
  callId: string;
  kind: UploadKind;
  eventId: string;
  dedupeKey: string;
  status: UploadStatus;
  facts: UploadFacts;
  reasonCode: ReasonCode | null;
  reason: string | null;
  at: Date;
}

/** What the buyer report (and the call-completed path) writes in its own transaction. */
export interface UploadOutbox {
  /** Enabled destinations of the organization whose trigger is this event, for this campaign. */
  triggeredDestinations(
    ex: Executor,
    orgId: string,
    campaignCode: string,
    event: Trigger['event'],
  ): Promise<Destination[]>;
  callSubject(ex: Executor, orgId: string, callId: string): Promise<CallSubject | null>;
  /** Skips a (destination, call, kind) that has a row already: one upload per call, ever. */
  insertUploads(tx: Transaction, rows: NewUpload[]): Promise<number>;
  /** The call's conversion rows (locked), with their destination's platform and configuration. */
  lockConversions(
    tx: Transaction,
    orgId: string,
    callId: string,
    at: Date,
  ): Promise<ConversionState[]>;
  markRejected(
    tx: Transaction,
    uploadId: string,
    change: { status?: UploadStatus; reasonCode?: ReasonCode; reason?: string; at: Date },
  ): Promise<void>;
  /**
   * The call's conversions not attempted yet (pending, never sent or in flight) whose destination
   * has no value of its own take the buyer's `payout`, in the organization's currency: a payout
   * fixed after they were queued (conversionValue's order: the destination's value, the payout,
   * the campaign's).
   */
  priceUnsent(
    tx: Transaction,
    orgId: string,
    callId: string,
    payout: string,
    at: Date,
  ): Promise<void>;
}

/** What retry and replay take (requeue.ts). */
export interface RequeueRepos extends UnitOfWork {
  uploads: Pick<
    UploadRepository,
    'retryUploads' | 'replayUploads' | 'backfillCandidates' | 'insertUploads'
  >;
  audit: AuditLog;
}

/** A call that has no upload for a destination yet, as replay's backfill reads it. */
export interface BackfillCandidate {
  subject: CallSubject;
  /** The buyer's latest verdict, and the event that gave it. */
  disposition: 'success' | 'rejected' | null;
  dispositionEventId: string | null;
}

/** A call replay did not queue, and why. */
export interface Skipped {
  callId: string;
  code: ReasonCode;
}

/**
 * The upload outbox: `repos.uploads`. The writes made in callers' transactions, the worker's
 * claims and records, and the admin's retry and replay (each returns how many rows it queued).
 */
export interface UploadRepository extends UploadOutbox, UploadClaims {
  /** Failed uploads (one, or every retriable one) back to pending, due at `at`. */
  retryUploads(
    ex: Executor,
    orgId: string,
    destinationId: string,
    uploadId: string | undefined,
    at: Date,
  ): Promise<number>;
  /**
   * Sent or failed conversions (since a time, or of one call) back to pending, due at `at`;
   * GA4's sent ones stay (GA4 would count them twice) and are named as skipped.
   */
  replayUploads(
    ex: Executor,
    orgId: string,
    destinationId: string,
    what: { since?: Date; callId?: string },
    at: Date,
  ): Promise<{ queued: number; skipped: Skipped[] }>;
  /**
   * Calls of the destination's campaigns (since a time, or one call) that its trigger would
   * have fired for, with no upload for it yet: a destination created after them.
   */
  backfillCandidates(
    ex: Executor,
    d: Pick<Destination, 'orgId' | 'id' | 'campaigns' | 'trigger'>,
    what: { since?: Date; callId?: string },
  ): Promise<BackfillCandidate[]>;
}

export interface ConversionState {
  uploadId: string;
  destinationId: string;
  /** The destination as it is configured now: whether it can retract (retractability.ts). */
  destination: RetractShape;
  status: UploadStatus;
  /** Held by a worker now: the send may be in flight. */
  leased: boolean;
  /** Pending the platform's report on a request it accepted (Data Manager): still checked. */
  awaiting: boolean;
  rejected: boolean;
  /** An attempt may have reached the platform unanswered: it may hold the conversion. */
  maybeApplied: boolean;
  dedupeKey: string;
  facts: UploadFacts;
}
