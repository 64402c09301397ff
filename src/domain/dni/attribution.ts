/** A session as attribution sees it. */
export interface HeldSession {
  id: string;
  createdAt: Date;
  expiresAt: Date;
}

import type { AttributionRule as AttributionKind } from '../vocabulary.js';

export type { AttributionKind };

export interface Attribution {
  kind: AttributionKind;
  sessionId: string | null;
  /** More than one live session held the number when the call came in. */
  ambiguous: boolean;
}

/** A holder's number still points to it this long after the session expired. */
export const RECENT_HOLDER_GRACE_MS = 30 * 60 * 1000;

/**
 * Attribution of an inbound call to tracking number N at time t (contract §3):
 * the session holding N at t; else N's last holder if t is within 30 minutes
 * after it expired and N was not handed out since; else the caller's latest
 * attributed session in the campaign; else the campaign only.
 *
 * `sessionsOfNumber` are N's sessions created at or before t, newest first.
 */
export function attributeCall(
  startedAt: Date,
  sessionsOfNumber: readonly HeldSession[],
  repeatCallerSessionId: string | null,
): Attribution {
  const at = startedAt.getTime();
  const live = sessionsOfNumber.filter(
    (s) => s.createdAt.getTime() <= at && s.expiresAt.getTime() > at,
  );
  if (live.length > 0) {
    // Several live holders happen only on a shared or overflow number: the latest visitor is likeliest.
    return { kind: 'session', sessionId: live[0]!.id, ambiguous: live.length > 1 };
  }
  // The holder that expired last: any later hand-out of N would itself have
  // expired later (or still be live), so "not handed out since" holds by construction.
  const last = sessionsOfNumber.reduce<HeldSession | null>(
    (best, s) =>
      s.expiresAt.getTime() <= at && (!best || s.expiresAt > best.expiresAt) ? s : best,
    null,
  );
  if (last && at - last.expiresAt.getTime() <= RECENT_HOLDER_GRACE_MS) {
    return { kind: 'recent_holder', sessionId: last.id, ambiguous: false };
  }
  if (repeatCallerSessionId) {
    return { kind: 'repeat_caller', sessionId: repeatCallerSessionId, ambiguous: false };
  }
  return { kind: 'campaign', sessionId: null, ambiguous: false };
}

/**
 * The session whose hold of the number attributed the call (rules `session` and
 * `recent_holder`), among the rows attributeCall was given; null for the other rules.
 * Its creation and expiry as they stood at the call are what pool sizing measures.
 */
export function holdOf(
  attribution: Attribution,
  sessionsOfNumber: readonly HeldSession[],
): HeldSession | null {
  if (attribution.kind !== 'session' && attribution.kind !== 'recent_holder') return null;
  return sessionsOfNumber.find((s) => s.id === attribution.sessionId) ?? null;
}
