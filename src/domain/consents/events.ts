/**
 * A consent event as stored, and its fingerprint: shared by the consents
 * service and the repository that stores them (a leaf, so neither imports
 * the other for it).
 */

import type { ConsentBasis } from '../compliance/index.js';
import { canonicalJson, sha256Hex } from './canonical-json.js';

export type RevocationKind = 'revoked' | 'opt_out' | 'internal_dnc';
/**
 * `resubscribe`: the contact texted START or UNSTOP. Kept as history only: it restores nothing,
 * because consent to automated marketing needs a new grant with its own evidence.
 */
export type ConsentEventKind =
  | 'grant'
  | RevocationKind
  | 'resubscribe'
  /**
   * A doubtful text reply that was answered with the one clarification question: a revocation
   * until a later `clarified` event says the person wants messages.
   */
  | 'opt_out_pending'
  /** The person answered the clarification question that they want messages. */
  | 'clarified';
export type EbrBasis = 'transaction' | 'inquiry';

/** One line of a contact's consent history, as stored. */
export interface ConsentEvent {
  id: string;
  kind: ConsentEventKind;
  tier: ConsentBasis | null;
  ebrBasis: EbrBasis | null;
  source: string | null;
  capturedAt: Date;
  expiresAt: Date | null;
  evidence: Record<string, unknown>;
  reason: string | null;
  actor: string;
  recordedAt: Date;
}

/** A new event before it is stored: what the admin API and the CSV import both produce. */
export interface NewConsentEvent extends Omit<ConsentEvent, 'id' | 'actor' | 'recordedAt'> {
  e164: string;
  /**
   * The carrier's id of the message or call that carried the event (a Twilio MessageSid or
   * CallSid). When set it alone identifies the event, so a replayed webhook adds nothing.
   */
  ref?: string | undefined;
}

/** Same statement, same fingerprint: re-importing a file or repeating a PUT adds nothing. */
export function consentFingerprint(event: NewConsentEvent): string {
  if (event.ref !== undefined) return sha256Hex(canonicalJson([event.e164, 'ref', event.ref]));
  return sha256Hex(
    canonicalJson([
      event.e164,
      event.kind,
      event.tier,
      event.ebrBasis,
      event.source,
      event.capturedAt.toISOString(),
      event.expiresAt?.toISOString() ?? null,
      event.evidence,
      event.reason,
    ]),
  );
}
