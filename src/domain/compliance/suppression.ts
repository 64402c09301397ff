/**
 * Suppression lists and reassigned numbers (compliance-rules.md Part B §1.5, §1.6, §4.3 "In
 * addition, regardless of tier", §6 point 5). Pure: the caller reads the list entries, the newest
 * national import and the stored RND answers, and passes them in.
 */
import { purposeOf, scrubRequired } from './config.js';
import { toMs } from './instant.js';
import type { Channel, ConsentTier, RndAnswer, SuppressionFacts, SuppressionHit } from './types.js';

/** Safe-harbor age of a registry copy (64.1200(c)(2)(i)(D)). */
export const NATIONAL_LIST_MAX_AGE_DAYS = 31;
const DAY = 86_400_000;

export type SuppressionCode = 'dnc_listed' | 'litigator_listed' | 'dnc_list_stale';

export interface SuppressionEntryReport extends SuppressionHit {
  /** Whether this entry blocks this touch (a pewc touch passes a national entry, for example). */
  blocks: boolean;
}

export interface SuppressionCheck {
  passed: boolean;
  /** Every failing code, in the order dnc_listed, litigator_listed, dnc_list_stale. */
  codes: SuppressionCode[];
  entries: SuppressionEntryReport[];
  national_list_date: string | null;
  scrub_required: boolean;
  /** The national copy is missing or older than 31 days. */
  national_list_stale: boolean;
}

export interface ReassignedCheck {
  passed: boolean;
  code: 'reassigned' | null;
  /** The consent date the answer must be for: the date of the consent on file. */
  consent_date: string | null;
  result: RndAnswer['result'] | null;
  checked_at: string | null;
  /** Maine requires a check before every sales call: a missing answer blocks there. */
  required: boolean;
}

export interface SuppressionContext {
  channel: Channel;
  tierOnFile: ConsentTier;
  /** When the consent on file was captured (ms), or null without one. */
  consentAt: number | null;
  state: string | null;
  /** The number's country (NANP): a Canadian number is scrubbed against Canada's list. */
  country?: string | null;
  config?: import('./types.js').CampaignComplianceConfig | undefined;
}

const EMPTY: SuppressionFacts = {
  hits: [],
  national_list_date: null,
  litigator_blocks: true,
  rnd: [],
};

/** Ages count in UTC calendar days: a copy dated 10 May is 31 days old on 10 June, and fresh. */
export function isStale(listDate: string | null, nowMs: number): boolean {
  if (listDate === null) return true;
  const today = Date.parse(`${new Date(nowMs).toISOString().slice(0, 10)}T00:00:00Z`);
  return (today - Date.parse(`${listDate}T00:00:00Z`)) / DAY > NATIONAL_LIST_MAX_AGE_DAYS;
}

export function checkSuppression(
  ctx: SuppressionContext,
  facts: SuppressionFacts | undefined,
  nowMs: number,
): SuppressionCheck {
  const f = facts ?? EMPTY;
  const marketing = purposeOf(ctx.config) === 'marketing';
  // A registry hit yields to signed written permission, or to an EBR for live agent calls.
  const dncExempt =
    ctx.tierOnFile === 'pewc' ||
    (ctx.tierOnFile === 'ebr' && ctx.channel === 'call' && ctx.config?.agent_dialed === true);
  const entries = f.hits.map((h) => {
    let blocks: boolean;
    if (h.list === 'internal') blocks = true;
    else if (h.list === 'litigator') blocks = marketing && f.litigator_blocks;
    else blocks = marketing && !dncExempt;
    return { ...h, blocks };
  });
  const codes: SuppressionCode[] = [];
  if (entries.some((e) => e.blocks && e.list !== 'litigator')) codes.push('dnc_listed');
  if (entries.some((e) => e.blocks && e.list === 'litigator')) codes.push('litigator_listed');
  const scrub = scrubRequired(ctx.config);
  // The registry that binds the number: Canada's National DNCL for a Canadian number.
  const listDate = ctx.country === 'CA' ? (f.national_ca_list_date ?? null) : f.national_list_date;
  const stale = isStale(listDate, nowMs);
  const registryHit = entries.some((e) => e.list !== 'internal' && e.list !== 'litigator');
  // Only a touch whose outcome turns on the national list waits for a fresh copy: not a pewc or
  // agent-dialed ebr touch (exempt), not one without any consent (blocked whatever the list says),
  // not one already listed.
  const dependsOnList = marketing && ctx.tierOnFile !== 'none' && !dncExempt && !registryHit;
  if (scrub && stale && dependsOnList) codes.push('dnc_list_stale');
  return {
    passed: codes.length === 0,
    codes,
    entries,
    national_list_date: listDate,
    scrub_required: scrub,
    national_list_stale: stale,
  };
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function checkReassigned(
  ctx: SuppressionContext,
  facts: SuppressionFacts | undefined,
): ReassignedCheck {
  const consentDate = ctx.consentAt === null ? null : isoDate(ctx.consentAt);
  const answer = (facts?.rnd ?? []).find((a) => a.consent_date === consentDate) ?? null;
  const required = ctx.state === 'ME' && purposeOf(ctx.config) === 'marketing';
  const reassigned = answer?.result === 'reassigned';
  const missing = required && consentDate !== null && answer === null;
  return {
    passed: !reassigned && !missing,
    code: reassigned || missing ? 'reassigned' : null,
    consent_date: consentDate,
    result: answer?.result ?? null,
    checked_at: answer ? new Date(toMs(answer.checked_at)).toISOString() : null,
    required,
  };
}

const MESSAGES: Record<SuppressionCode | 'reassigned', string> = {
  dnc_listed: 'The number is on a do-not-call list that binds this touch.',
  litigator_listed: 'The number is on the litigator list.',
  dnc_list_stale:
    'The national do-not-call list on file is missing or older than 31 days; import a fresh copy.',
  reassigned:
    'The number was reassigned since consent, or the required reassigned-number check is missing.',
};

export function suppressionMessage(code: SuppressionCode | 'reassigned'): string {
  return MESSAGES[code];
}
