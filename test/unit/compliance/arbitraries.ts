/** Generators shared by the property tests: numbers, instants, channels, purposes, windows. */
import fc from 'fast-check';
import type { Weekday } from '../../../src/domain/compliance/data/state-rules.js';
import {
  type CampaignComplianceConfig,
  type Channel,
  type FrequencyCapsConfig,
  resolveLocation,
} from '../../../src/domain/compliance/index.js';
import { AREA_CODES } from '../../../src/domain/compliance/tables.js';
import type { OracleCase } from './oracle.js';

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
export const WEEK = 7 * DAY;

// Every US area code (splits included), and a few non-US ones with odd zones (Newfoundland −3:30).
const NPAS = [...AREA_CODES.values()].filter((e) => e.us).map((e) => e.npa);
const OTHER_NPAS = [416, 709, 807, 867, 876, 787];
const LEAD_ZONES = [
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Phoenix',
  'America/Los_Angeles',
  'America/Anchorage',
  'Pacific/Honolulu',
];
const DAYS: Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
// US DST switches and holiday clusters where off-by-one-day bugs would show.
const HOT_SPOTS = [
  '2026-03-08T07:00:00Z',
  '2026-11-01T06:00:00Z',
  '2027-03-14T07:00:00Z',
  '2027-11-07T06:00:00Z',
  '2026-07-03T12:00:00Z',
  '2026-11-26T12:00:00Z',
  '2026-12-24T12:00:00Z',
  '2027-12-24T12:00:00Z',
  '2027-12-31T12:00:00Z',
  // Years the curated tables never covered: New Year's Eve observed, Easter-based days.
  '2028-01-01T12:00:00Z',
  '2032-12-31T12:00:00Z',
  '2038-03-09T12:00:00Z',
  '2040-11-06T12:00:00Z',
].map(Date.parse);

export const instantArb = fc.oneof(
  fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2040, 11, 24) }),
  fc
    .integer({ min: Date.UTC(2026, 0, 1) / MIN, max: Date.UTC(2040, 11, 24) / MIN })
    .map((m) => m * MIN),
  fc
    .tuple(fc.constantFrom(...HOT_SPOTS), fc.integer({ min: -2 * DAY, max: 2 * DAY }))
    .map(([t, d]) => t + d),
);
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const windowArb = fc
  .tuple(
    // Mostly windows that meet the legal ones some day; a few never do (null next_allowed_at).
    fc.integer({ min: 6 * 60, max: 18 * 60 }),
    fc.integer({ min: 15, max: 12 * 60 }),
    fc.option(fc.subarray(DAYS, { minLength: 2 }), { nil: undefined }),
  )
  .map(([start, len, days]) => ({
    start: hhmm(start),
    end: hhmm(Math.min(start + len, 24 * 60)),
    ...(days ? { days } : {}),
  }));

export const touchCase = fc.record({
  npa: fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom(...NPAS) },
    { weight: 1, arbitrary: fc.constantFrom(...OTHER_NPAS) },
  ),
  now: instantArb,
  channel: fc.constantFrom<Channel>('call', 'sms', 'voicemail'),
  purpose: fc.constantFrom('marketing', 'informational'),
  window: fc.option(windowArb, { nil: undefined }),
  lead: fc.option(fc.constantFrom(...LEAD_ZONES), { nil: undefined, freq: 4 }),
});

export type TouchCase = typeof touchCase extends fc.Arbitrary<infer T> ? T : never;

export function configOf(c: TouchCase, caps?: FrequencyCapsConfig): CampaignComplianceConfig {
  return {
    purpose: c.purpose as 'marketing' | 'informational',
    ...(c.window ? { calling_window: c.window } : {}),
    ...(caps ? { frequency_caps: caps } : {}),
  };
}

export function oracleCase(c: TouchCase): OracleCase {
  const e164 = `+1${c.npa}5550123`;
  const loc = resolveLocation(e164, c.lead);
  const entry = AREA_CODES.get(c.npa)!;
  const zones = [...entry.zones];
  if (c.lead && !loc.zones.every((z) => zones.includes(z))) zones.push(c.lead);
  return {
    zones,
    stateForRules: c.purpose === 'marketing' && entry.us ? entry.region : null,
    canada: entry.country === 'CA',
    channel: c.channel,
    ...(c.window ? { campaign: c.window } : {}),
  };
}

export const DEFAULT_CAPS = [
  { key: 'per_24h', scope: 'all', windowMs: DAY, max: 3 },
  { key: 'per_7d', scope: 'all', windowMs: WEEK, max: 7 },
  { key: 'voicemail_per_24h', scope: 'voicemail', windowMs: DAY, max: 1 },
  { key: 'sms_per_24h', scope: 'sms', windowMs: DAY, max: 2 },
] as const;

export const combinedCase = fc.record({
  touch: touchCase,
  // Placed touches on whole minutes within the 8 days before now, so caps free on minute marks.
  history: fc.array(
    fc.record({
      // Some exactly one window old (8 h, 24 h, 7 d): the edge where a touch stops counting.
      minutesAgo: fc.oneof(
        { weight: 5, arbitrary: fc.integer({ min: 0, max: 8 * 24 * 60 }) },
        { weight: 1, arbitrary: fc.constantFrom(8 * 60, 24 * 60, 7 * 24 * 60) },
      ),
      channel: fc.constantFrom<Channel>('call', 'sms', 'voicemail'),
    }),
    { maxLength: 9 },
  ),
  caps: fc.option(
    fc.record(
      {
        per_24h: fc.integer({ min: 1, max: 5 }),
        per_7d: fc.integer({ min: 1, max: 9 }),
        voicemail_per_24h: fc.integer({ min: 1, max: 2 }),
        sms_per_24h: fc.integer({ min: 1, max: 3 }),
      },
      { requiredKeys: [] },
    ),
    { nil: undefined },
  ),
});
