import {
  type ConsentBasis,
  type ConsentRecord,
  type ConsentTier,
  checkConsent,
  type RevocationEvent,
  resolveLocation,
  revocationHold,
} from '../compliance/index.js';
import type { Executor } from '../ports.js';
import type {
  ConsentEvent,
  ConsentEventKind,
  EbrBasis,
  NewConsentEvent,
  RevocationKind,
} from './events.js';
import type { ConsentLog, Recorder } from './ports.js';

export interface GrantInput {
  tier: ConsentBasis;
  basis?: EbrBasis | undefined;
  source?: string | null | undefined;
  captured_at?: string | undefined;
  expires_at?: string | null | undefined;
  evidence?: Record<string, unknown> | undefined;
}

export interface RevocationInput {
  kind?: RevocationKind | undefined;
  reason?: string | null | undefined;
  at?: string | undefined;
}

export interface FieldProblem {
  field: string;
  message: string;
}

/** Rules a schema cannot express: they tie fields together or need the clock. */
export function grantProblems(input: GrantInput, nowMs: number): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (input.tier === 'ebr' && input.basis === undefined) {
    problems.push({ field: 'basis', message: 'an ebr grant needs basis transaction or inquiry' });
  }
  if (input.tier !== 'ebr' && input.basis !== undefined) {
    problems.push({ field: 'basis', message: 'basis applies to ebr grants only' });
  }
  const captured = input.captured_at === undefined ? nowMs : Date.parse(input.captured_at);
  if (captured > nowMs) {
    problems.push({ field: 'captured_at', message: 'must not be in the future' });
  }
  if (input.expires_at && Date.parse(input.expires_at) <= captured) {
    problems.push({ field: 'expires_at', message: 'must be after captured_at' });
  }
  return problems;
}

export function revocationProblems(input: RevocationInput, nowMs: number): FieldProblem[] {
  return input.at !== undefined && Date.parse(input.at) > nowMs
    ? [{ field: 'at', message: 'must not be in the future' }]
    : [];
}

export function grantEvent(e164: string, input: GrantInput, nowMs: number): NewConsentEvent {
  return {
    e164,
    kind: 'grant',
    tier: input.tier,
    ebrBasis: input.tier === 'ebr' ? (input.basis ?? null) : null,
    source: input.source ?? null,
    capturedAt: new Date(input.captured_at === undefined ? nowMs : Date.parse(input.captured_at)),
    expiresAt: input.expires_at ? new Date(input.expires_at) : null,
    evidence: { ...input.evidence },
    reason: null,
  };
}

export function revocationEvent(
  e164: string,
  input: RevocationInput,
  nowMs: number,
): NewConsentEvent {
  return {
    e164,
    kind: input.kind ?? 'revoked',
    tier: null,
    ebrBasis: null,
    source: null,
    capturedAt: new Date(input.at === undefined ? nowMs : Date.parse(input.at)),
    expiresAt: null,
    evidence: {},
    reason: input.reason ?? null,
  };
}

/**
 * A revocation from the contact through a carrier (a STOP text, a keypress): every channel and
 * purpose ("revoke-all", Part B §1.4), with what the contact sent as evidence.
 */
export interface ContactRevocation {
  kind: 'opt_out' | 'opt_out_pending' | 'clarified' | 'resubscribe';
  /** How it arrived, e.g. `sms:twilio` or `keypress:twilio`. */
  source: string;
  ref: string;
  evidence: Record<string, unknown>;
}

export function contactRevocationEvent(
  e164: string,
  r: ContactRevocation,
  nowMs: number,
): NewConsentEvent {
  return {
    e164,
    kind: r.kind,
    tier: null,
    ebrBasis: null,
    source: r.source,
    capturedAt: new Date(nowMs),
    expiresAt: null,
    evidence:
      r.kind === 'opt_out' || r.kind === 'opt_out_pending'
        ? { scope: 'all', ...r.evidence }
        : { ...r.evidence },
    reason: null,
    ref: r.ref,
  };
}

/** What the engine reads of an event. */
export type ConsentFacts = Pick<
  ConsentEvent,
  'id' | 'kind' | 'tier' | 'ebrBasis' | 'capturedAt' | 'expiresAt'
>;

/**
 * The engine's view of a history (compliance-rules.md Part A point 1). A pending opt-out (a
 * doubtful reply that was asked about) is an opt-out unless a later `clarified` event says the
 * person wants messages: silence leaves it in force.
 */
export function engineConsent(events: readonly ConsentFacts[]): {
  records: ConsentRecord[];
  revocations: RevocationEvent[];
} {
  const records: ConsentRecord[] = [];
  const revocations: RevocationEvent[] = [];
  const lastClarified = events.reduce(
    (acc, e) => (e.kind === 'clarified' ? Math.max(acc, e.capturedAt.getTime()) : acc),
    -Infinity,
  );
  for (const e of events) {
    if (e.kind === 'clarified' || e.kind === 'resubscribe') continue;
    if (e.kind === 'opt_out_pending') {
      if (e.capturedAt.getTime() > lastClarified) {
        revocations.push({ kind: 'opt_out', at: e.capturedAt });
      }
      continue;
    }
    if (e.kind === 'grant' && e.tier) {
      records.push({
        id: e.id,
        tier: e.tier,
        captured_at: e.capturedAt,
        ...(e.ebrBasis ? { ebr_basis: e.ebrBasis } : {}),
        ...(e.expiresAt ? { expires_at: e.expiresAt } : {}),
      });
    } else if (e.kind !== 'grant') {
      revocations.push({ kind: e.kind, at: e.capturedAt });
    }
  }
  return { records, revocations };
}

export type ConsentStatus = 'active' | 'expired' | 'revoked' | 'do_not_call' | 'none';

/** Where a contact stands now, with the same rules the touch check applies. */
export function consentStanding(
  events: readonly ConsentEvent[],
  nowMs: number,
  e164?: string,
): { status: ConsentStatus; tier_on_file: ConsentTier; record_id: string | null } {
  const { records, revocations } = engineConsent(events);
  // The weakest assertion and requirement, so the check reports only what is on file.
  const check = checkConsent(
    {
      channel: 'call',
      asserted: 'ebr',
      records,
      revocations,
      config: { purpose: 'informational' },
      ...(e164 === undefined ? {} : revocationHold(resolveLocation(e164))),
    },
    nowMs,
  );
  let status: ConsentStatus;
  if (revocations.some((r) => r.kind === 'internal_dnc')) status = 'do_not_call';
  else if (check.code === 'consent_missing') status = 'none';
  else if (check.code === 'consent_revoked') status = 'revoked';
  else status = check.tier_on_file === 'none' ? 'expired' : 'active';
  return { status, tier_on_file: check.tier_on_file, record_id: check.record_id };
}

export function eventView(event: ConsentEvent) {
  return {
    id: event.id,
    kind: event.kind,
    tier: event.tier,
    basis: event.ebrBasis,
    source: event.source,
    captured_at: event.capturedAt.toISOString(),
    expires_at: event.expiresAt?.toISOString() ?? null,
    evidence: event.evidence,
    reason: event.reason,
    actor: event.actor,
    recorded_at: event.recordedAt.toISOString(),
  };
}

/** The audit action of each kind of event. */
const ACTIONS: Record<ConsentEventKind, string> = {
  grant: 'consent.granted',
  revoked: 'consent.revoked',
  opt_out: 'consent.revoked',
  internal_dnc: 'consent.revoked',
  resubscribe: 'consent.resubscribe_requested',
  opt_out_pending: 'consent.revoked',
  clarified: 'consent.clarified',
};

/**
 * The one way a single consent event is recorded (admin API, carrier webhooks): the event and
 * its audit line, in the caller's transaction. A repeat of an event already on file (same
 * fingerprint) changes nothing and is not audited again: null then.
 */
export async function recordConsentEvent(
  log: ConsentLog,
  ex: Executor,
  by: Recorder,
  event: NewConsentEvent,
): Promise<string | null> {
  const [id] = await log.consents.appendConsentEvents(ex, by, [event]);
  if (!id) return null;
  await log.audit.writeAudit(ex, {
    ...by,
    action: ACTIONS[event.kind],
    subjectType: 'consent',
    subjectId: event.e164,
    detail: {
      event_id: id,
      kind: event.kind,
      tier: event.tier,
      source: event.source,
      ...(event.ref !== undefined ? { ref: event.ref, scope: event.evidence.scope ?? null } : {}),
    },
  });
  return id;
}

/**
 * A contact's own revocation through a carrier, across every channel and purpose. Null when the
 * same message or call was already recorded (a replayed webhook).
 */
export function revokeAll(
  log: ConsentLog,
  ex: Executor,
  by: Recorder,
  e164: string,
  revocation: Omit<ContactRevocation, 'kind'>,
): Promise<string | null> {
  return recordConsentEvent(
    log,
    ex,
    by,
    contactRevocationEvent(e164, { ...revocation, kind: 'opt_out' }, by.at.getTime()),
  );
}

export { consentFingerprint } from './events.js';
export type { ConsentEvent, ConsentEventKind, EbrBasis, NewConsentEvent, RevocationKind };
