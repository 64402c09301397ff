import { type ConsentCheck, checkConsent, consentMessage } from './consent.js';
import { checkFrequency, type FrequencyCheck } from './frequency.js';
import { toIso, toMs } from './instant.js';
import { type Location, resolveLocation } from './location.js';
import { checkQuietHours, nextQuietAllowed, type QuietHoursCheck } from './quiet-hours.js';
import {
  checkReassigned,
  checkSuppression,
  type ReassignedCheck,
  type SuppressionCheck,
  suppressionMessage,
} from './suppression.js';
import { COMPILED_STATE_RULES } from './tables.js';
import type { Reason, TouchInput } from './types.js';

/** The number's state rule on how long a revocation holds against new grants (Virginia: ten years). */
export function revocationHold(location: Location): { revocationYears?: number } {
  const state = location.resolved ? location.state : null;
  const years = state ? COMPILED_STATE_RULES.get(state)?.revocationYears : undefined;
  return years === undefined ? {} : { revocationYears: years };
}

export interface TouchDecision {
  allowed: boolean;
  /**
   * Failing checks in the order consent, quiet hours, frequency, suppression, reassigned; empty
   * when allowed.
   */
  reasons: Reason[];
  checks: {
    consent: ConsentCheck;
    quiet_hours: QuietHoursCheck;
    frequency: FrequencyCheck;
    suppression: SuppressionCheck;
    reassigned: ReassignedCheck;
  };
  /**
   * Earliest instant at which the touch would pass quiet hours and frequency together; null when
   * allowed, or when a failing check has no knowable time (consent, unresolved location).
   */
  next_allowed_at: string | null;
  location: Location;
  evaluated_at: string;
}

function quietMessage(check: QuietHoursCheck): string {
  if (check.code === 'location_unresolved') {
    return "The contact's time zone cannot be resolved from the number and lead_timezone.";
  }
  const outside = check.local.filter((z) => !z.inside).map((z) => z.zone);
  return `Outside the permitted calling window in ${outside.join(', ')}.`;
}

function frequencyMessage(check: FrequencyCheck): string {
  const hit = check.caps.filter((c) => !c.passed);
  const parts = hit.map(
    (c) => `${c.count}/${c.max} ${c.scope === 'all' ? 'touches' : c.scope} in ${c.window_hours} h`,
  );
  return `Contact frequency cap reached (${parts.join('; ')}).`;
}

/**
 * Runs every check (compliance-rules.md Part A, contract §5) and reports all of them. Pure: the
 * caller passes the records, history and `nowMs`; nothing here reads a clock or a store.
 */
export function evaluateTouch(input: TouchInput, nowMs: number): TouchDecision {
  const location = resolveLocation(input.to_e164, input.lead_timezone);
  const consent = checkConsent(
    {
      channel: input.channel,
      asserted: input.consent_basis,
      records: input.records,
      revocations: input.revocations,
      ...(input.config ? { config: input.config } : {}),
      ...revocationHold(location),
    },
    nowMs,
  );
  const quietInput = {
    location,
    channel: input.channel,
    ...(input.config ? { config: input.config } : {}),
  };
  const quiet = checkQuietHours(quietInput, nowMs);
  const frequencyInput = {
    channel: input.channel,
    history: input.history,
    state: location.resolved ? location.state : null,
    ...(input.config ? { config: input.config } : {}),
  };
  const frequency = checkFrequency(frequencyInput, nowMs);
  const consentRecord =
    consent.record_id === null ? null : input.records.find((r) => r.id === consent.record_id);
  const suppressionCtx = {
    channel: input.channel,
    tierOnFile: consent.tier_on_file,
    consentAt: consentRecord ? toMs(consentRecord.captured_at) : null,
    state: location.resolved ? location.state : null,
    country: location.resolved ? location.country : null,
    config: input.config,
  };
  const suppression = checkSuppression(suppressionCtx, input.suppression, nowMs);
  const reassigned = checkReassigned(suppressionCtx, input.suppression);

  const reasons: Reason[] = [];
  if (consent.code) reasons.push({ code: consent.code, message: consentMessage(consent.code) });
  if (quiet.code) reasons.push({ code: quiet.code, message: quietMessage(quiet) });
  if (frequency.code) reasons.push({ code: frequency.code, message: frequencyMessage(frequency) });
  for (const code of suppression.codes) reasons.push({ code, message: suppressionMessage(code) });
  if (reassigned.code)
    reasons.push({ code: 'reassigned', message: suppressionMessage('reassigned') });

  let next: string | null = null;
  // Lists and RND answers change only by import, never by waiting: no knowable time.
  if (consent.passed && location.resolved && suppression.passed && reassigned.passed) {
    if (frequency.passed) next = quiet.next_allowed_at;
    else if (frequency.next_allowed_at !== null) {
      // Frequency only loosens with time, so the answer is the first quiet-hours opening after it.
      const opens = nextQuietAllowed(quietInput, Date.parse(frequency.next_allowed_at));
      next = opens === null ? null : toIso(opens);
    }
  }
  return {
    allowed: reasons.length === 0,
    reasons,
    checks: { consent, quiet_hours: quiet, frequency, suppression, reassigned },
    next_allowed_at: next,
    location,
    evaluated_at: toIso(nowMs),
  };
}
