import { purposeOf, requiredTier, tierRank } from './config.js';
import { toIso, toMs } from './instant.js';
import type {
  Channel,
  ConsentBasis,
  ConsentInput,
  ConsentRecord,
  ConsentTier,
  Purpose,
  RevocationEvent,
} from './types.js';

export type ConsentCode =
  | 'consent_missing'
  | 'consent_revoked'
  | 'consent_insufficient'
  | 'channel_not_allowed';

export interface ConsentCheck {
  passed: boolean;
  code: ConsentCode | null;
  channel: Channel;
  purpose: Purpose;
  /** The caller's claim, recorded whatever the outcome (Part A point 2). */
  asserted: ConsentBasis;
  tier_on_file: ConsentTier;
  required: ConsentBasis;
  /** The record that gives the tier on file, when it has an id. */
  record_id: string | null;
  /** Latest revocation, opt-out or internal DNC entry on file. */
  revoked_at: string | null;
  allowed_channels: Channel[] | null;
}

/** EBR lasts 18 months after a transaction, 3 after an inquiry (64.1200(f)(5), Part A point 1). */
const EBR_MONTHS = { transaction: 18, inquiry: 3 } as const;

/** Calendar months later in UTC, clamped to the month's last day (Aug 31 + 6 months = Feb 28/29). */
export function addMonthsUtc(ms: number, months: number): number {
  const d = new Date(ms);
  const targetMonth = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), targetMonth + 1, 0)).getUTCDate();
  return Date.UTC(
    d.getUTCFullYear(),
    targetMonth,
    Math.min(d.getUTCDate(), lastDay),
    d.getUTCHours(),
    d.getUTCMinutes(),
    d.getUTCSeconds(),
    d.getUTCMilliseconds(),
  );
}

function expiresAt(record: ConsentRecord): number {
  const explicit = record.expires_at === undefined ? Infinity : toMs(record.expires_at);
  if (record.tier !== 'ebr') return explicit;
  const months = EBR_MONTHS[record.ebr_basis ?? 'inquiry'];
  return Math.min(explicit, addMonthsUtc(toMs(record.captured_at), months));
}

/**
 * A revocation or opt-out voids consent captured at or before it; later consent stands, unless
 * the number's state holds a revocation for some years against any grant (Virginia: ten).
 */
function voidedBy(
  record: ConsentRecord,
  revocations: readonly RevocationEvent[],
  nowMs: number,
  holdYears: number | undefined,
): boolean {
  const captured = toMs(record.captured_at);
  return revocations.some((r) => {
    if (r.kind === 'internal_dnc') return false;
    const at = toMs(r.at);
    return at >= captured || (holdYears !== undefined && nowMs < addMonthsUtc(at, 12 * holdYears));
  });
}

const MESSAGES: Record<ConsentCode, string> = {
  consent_missing: 'No consent is on file for this number.',
  consent_revoked: 'The contact revoked consent, opted out or is on the do-not-call list.',
  consent_insufficient:
    'The consent on file is below what this touch requires or what was asserted.',
  channel_not_allowed: 'The campaign does not allow this channel.',
};

export function consentMessage(code: ConsentCode): string {
  return MESSAGES[code];
}

/**
 * Part A points 1-3; the first failing code wins: consent_missing, consent_revoked,
 * consent_insufficient, then channel_not_allowed (the campaign's own restriction).
 */
export function checkConsent(input: ConsentInput, nowMs: number): ConsentCheck {
  const { channel, asserted, config } = input;
  const inScope = input.records.filter((r) => !r.channels || r.channels.includes(channel));
  const live = inScope.filter((r) => !voidedBy(r, input.revocations, nowMs, input.revocationYears));
  const dnc = input.revocations.some((r) => r.kind === 'internal_dnc');
  let best: ConsentRecord | null = null;
  for (const r of live) {
    const current = toMs(r.captured_at) <= nowMs && nowMs < expiresAt(r);
    if (current && (!best || tierRank(r.tier) > tierRank(best.tier))) best = r;
  }
  const tierOnFile: ConsentTier = best?.tier ?? 'none';
  const required = requiredTier(channel, config);
  const allowed = config?.allowed_channels ?? null;
  const latestRevocation = input.revocations.reduce<number | null>(
    (acc, r) => Math.max(acc ?? -Infinity, toMs(r.at)),
    null,
  );

  let code: ConsentCode | null = null;
  if (inScope.length === 0) code = 'consent_missing';
  else if (dnc || live.length === 0) code = 'consent_revoked';
  else if (tierRank(asserted) > tierRank(tierOnFile) || tierRank(tierOnFile) < tierRank(required)) {
    code = 'consent_insufficient';
  } else if (allowed && !allowed.includes(channel)) code = 'channel_not_allowed';

  return {
    passed: code === null,
    code,
    channel,
    purpose: purposeOf(config),
    asserted,
    tier_on_file: tierOnFile,
    required,
    record_id: best?.id ?? null,
    revoked_at: latestRevocation === null ? null : toIso(latestRevocation),
    allowed_channels: allowed,
  };
}
