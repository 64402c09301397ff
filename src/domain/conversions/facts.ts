import { createHash } from 'node:crypto';
import { normalizeE164 } from '../phone/e164.js';
import type { Platform, ReasonCode } from './vocabulary.js';

/** What the worker needs to build any platform's request, fixed when the upload is written. */
export interface UploadFacts {
  callId: string;
  /** The conversion time: when the call started (ISO 8601 UTC). */
  conversionAt: string;
  value: number | null;
  currency: string | null;
  gclid?: string;
  gbraid?: string;
  wbraid?: string;
  fbc?: string;
  fbp?: string;
  msclkid?: string;
  gaClientId?: string;
  /** The GA4 session id (`session_id` event parameter), when the landing URL carries it. */
  gaSessionId?: string;
  /** SHA-256 (hex) of the caller's number as Google wants it: E.164 with the `+`. */
  phoneGoogle?: string;
  /** SHA-256 (hex) of the caller's number as Meta wants it: digits only, country code first. */
  phoneMeta?: string;
}

/** The call and its session as the outbox reads them. */
export interface CallSubject {
  callId: string;
  campaignId: string;
  campaignCode: string;
  campaignConfig: unknown;
  startedAt: Date;
  fromNumber: string;
  durationSeconds: number | null;
  gclid: string | null;
  gbraid: string | null;
  wbraid: string | null;
  fbc: string | null;
  fbp: string | null;
  fbclid: string | null;
  msclkid: string | null;
  landingUrl: string | null;
  /**
   * The payout of the buyer who answered the call, fixed when the buyer's leg ended ("0.00" when
   * not billable; null: no buyer, or not fixed yet), in the organization's currency.
   */
  payout: string | null;
  currency: string;
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** Google and Meta both hash a normalised number; each has its own normal form. */
export function hashedPhones(raw: string): { phoneGoogle?: string; phoneMeta?: string } {
  const e164 = normalizeE164(raw.trim());
  if (!e164) return {};
  return { phoneGoogle: sha256(e164), phoneMeta: sha256(e164.slice(1)) };
}

/**
 * The GA4 client id from the landing URL: `client_id` or `ga_client_id` as given, or the
 * cookie form of `_ga` (`GA1.1.<random>.<seconds>` → `<random>.<seconds>`).
 */
export function gaClientId(landingUrl: string | null): string | undefined {
  if (!landingUrl) return undefined;
  let params: URLSearchParams;
  try {
    params = new URL(landingUrl).searchParams;
  } catch {
    return undefined;
  }
  const direct = params.get('client_id') ?? params.get('ga_client_id');
  if (direct && /^\d{1,20}\.\d{1,20}$/.test(direct)) return direct;
  const ga = /^(?:GA\d\.\d\.)?(\d{1,20}\.\d{1,20})$/.exec(params.get('_ga') ?? '');
  return ga?.[1];
}

/**
 * The GA4 session id from the landing URL: `session_id` or `ga_session_id` as given, or the
 * value of the `_ga_<container>` cookie passed through (`GS1.1.<session>.…` or, in the newer
 * form, `GS2.1.s<session>$o1$g1$t…`).
 */
export function gaSessionId(landingUrl: string | null): string | undefined {
  if (!landingUrl) return undefined;
  let params: URLSearchParams;
  try {
    params = new URL(landingUrl).searchParams;
  } catch {
    return undefined;
  }
  const direct = params.get('session_id') ?? params.get('ga_session_id');
  if (direct && /^\d{1,20}$/.test(direct)) return direct;
  for (const [k, v] of params) {
    if (!/^_ga_[A-Z0-9]{4,20}$/i.test(k)) continue;
    const m = /^GS1\.\d\.(\d{1,20})\./.exec(v) ?? /^GS2\.\d\.s(\d{1,20})(?:\$|$)/.exec(v);
    if (m) return m[1];
  }
  return undefined;
}

/** Meta's fbc from a bare fbclid, as its documentation composes it: fb.1.<ms>.<fbclid>. */
const fbcOf = (s: CallSubject) =>
  s.fbc ?? (s.fbclid ? `fb.1.${s.startedAt.getTime()}.${s.fbclid}` : null);

export function callFacts(
  subject: CallSubject,
  value: { amount: number; currency: string } | null,
): UploadFacts {
  const f: UploadFacts = {
    callId: subject.callId,
    conversionAt: subject.startedAt.toISOString(),
    value: value?.amount ?? null,
    currency: value?.currency ?? null,
    ...hashedPhones(subject.fromNumber),
  };
  const fbc = fbcOf(subject);
  const ga = gaClientId(subject.landingUrl);
  const gaSession = gaSessionId(subject.landingUrl);
  for (const [k, v] of [
    ['gclid', subject.gclid],
    ['gbraid', subject.gbraid],
    ['wbraid', subject.wbraid],
    ['fbc', fbc],
    ['fbp', subject.fbp],
    ['msclkid', subject.msclkid],
    ['gaClientId', ga],
    ['gaSessionId', gaSession],
  ] as const) {
    if (v) f[k] = v;
  }
  return f;
}

/** Why a platform gets nothing for these facts, or null when it can take them. */
export function skipReason(platform: Platform, f: UploadFacts): ReasonCode | null {
  switch (platform) {
    case 'google_ads':
      // Enhanced conversions for leads match on the hashed number, but Google still wants a
      // click id for an offline click conversion.
      return f.gclid || f.gbraid || f.wbraid ? null : 'no_click_id';
    case 'meta':
      return f.fbc || f.fbp ? null : 'no_click_id';
    case 'microsoft_ads':
      return f.msclkid ? null : 'no_click_id';
    case 'ga4':
      return f.gaClientId ? null : 'no_client_id';
  }
}

/** `yyyy-mm-dd hh:mm:ss+hh:mm` in the zone: the form Google Ads' API asks for. */
export function googleDateTime(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZoneName: 'longOffset',
  }).formatToParts(at);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value;
  // longOffset reads "GMT" at zero and "GMT-05:00" elsewhere.
  const offset = /([+-]\d{2}:\d{2})/.exec(get('timeZoneName') ?? '')?.[1] ?? '+00:00';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}${offset}`;
}
