import type { Executor } from '../ports.js';
import type { UploadFacts } from './facts.js';
import type { ItemResult } from './platform.js';
import type { Platform, ReasonCode, UploadKind } from './vocabulary.js';

export interface ClaimedUpload {
  uploadId: string;
  orgId: string;
  destinationId: string;
  platform: Platform;
  destinationName: string;
  settings: Record<string, string>;
  sealedSecrets: string;
  /** The names of the destination's secrets (its mask's keys): what retractability reads. */
  secretNames: string[];
  callId: string;
  kind: UploadKind;
  dedupeKey: string;
  facts: UploadFacts;
  /** 1 for the first attempt; a check of an accepted request counts as one. */
  attempt: number;
  /** How many of those attempts were checks (this one included when it is one). */
  checks: number;
  /** The accepted request whose processing report it awaits: checked, not sent. */
  requestId: string | null;
  /** When the platform accepted that request (ms); null when none is awaited. */
  awaitingSinceMs: number | null;
  /** Sent in a request of its own. */
  solo: boolean;
}

export interface UploadClaim {
  nowMs: number;
  leaseMs: number;
  limit: number;
  worker: string;
}

/** Where a row goes after an attempt. */
export type UploadNext =
  /** `note`: how the platform said it holds it, when not a plain yes (kept as the reason). */
  | { state: 'sent'; note?: string }
  | {
      state: 'pending';
      retryAtMs: number;
      code: ReasonCode;
      reason: string;
      /** Checked (not sent) next time: the accepted request still unreported. */
      requestId?: string;
      /** When the platform accepted that request (ms). */
      awaitingSinceMs?: number;
      /** Sent next time in a request of its own. */
      solo?: boolean;
    }
  | { state: 'failed'; code: ReasonCode; reason: string };

export interface UploadRecord {
  upload: ClaimedUpload;
  result: ItemResult;
  next: UploadNext;
  statusCode: number | null;
  startedAt: Date;
  /**
   * The platform may hold it: the attempt reached it unanswered (MAYBE_APPLIED_REASONS), or it
   * accepted the request and has not reported processing it.
   */
  maybeApplied: boolean;
  /** The platform reported processing it and refusing it: it surely does not hold it. */
  notHeld: boolean;
  /**
   * Null when the destination can retract (retractability.ts); else the reason a conversion
   * sent after the buyer rejected the call keeps as it reads not_retractable.
   */
  notRetractable: string | null;
}

/** The upload worker's side of the outbox (delivery.ts); each runs its own transaction on `ex`. */
export interface UploadClaims {
  claimUploads(ex: Executor, c: UploadClaim): Promise<ClaimedUpload[]>;
  /** Records a batch's attempts in one transaction, each fenced by its lease; how many held. */
  recordUploads(
    ex: Executor,
    worker: string,
    records: UploadRecord[],
    nowMs: number,
  ): Promise<number>;
  /** Replaces a destination's sealed secrets if they are still `was`; whether it did. */
  replaceSealedSecrets(
    ex: Executor,
    destinationId: string,
    was: string,
    now: string,
  ): Promise<boolean>;
}
