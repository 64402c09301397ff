/**
 * State calling windows, Sunday and holiday bans, and state frequency caps for MARKETING touches.
 *
 * _source: /work/shared/compliance-rules.md Part B §2.1 (table), §2.2 (conflicts: the stricter
 * reading is taken), §5.1 (caps) and §6 point 2 (summary). Confidence tags as in Part B:
 * P primary text seen, S secondary, V vendor table only, M memory. Not legal advice: every row
 * must be checked by counsel before the defaults ship.
 *
 * Times are local wall-clock 'HH:MM', start inclusive, end exclusive. The federal 08:00-21:00 window
 * is applied by the engine to every touch and is not repeated here; states whose rules are the
 * federal ones (AZ, GA, TN and the rest) have no entry.
 */

export type Weekday = 'sun' | 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat';
export type { Channel as TouchChannel } from '../../vocabulary.js';

import type { Channel as TouchChannel } from '../../vocabulary.js';
export type DayRule = { readonly start: string; readonly end: string } | 'closed';

export interface StateRestriction {
  /** Channels the restriction binds; absent: every channel. */
  readonly channels?: readonly TouchChannel[];
  /** Applies only on local days observed under daylight saving time. */
  readonly dstOnly?: boolean;
  /** A weekday missing here is not restricted by this entry. */
  readonly days: Readonly<Partial<Record<Weekday, DayRule>>>;
  /** Replaces the weekday rule on the state's holidays (holidays.ts); absent: holidays are ordinary days. */
  readonly holidays?: DayRule;
}

export interface StateFrequencyCap {
  readonly max: number;
  readonly windowHours: number;
}

export interface StateRule {
  readonly restrictions: readonly StateRestriction[];
  /** Count every touch kind, across campaigns (Part B §2.2 point 7). */
  readonly frequencyCaps?: readonly StateFrequencyCap[];
  /**
   * Years a revocation from a number of the state stays in force against any later grant, for
   * every touch (absent: a later grant stands at once).
   */
  readonly revocationYears?: number;
  readonly confidence: string;
  readonly source: string;
  readonly note?: string;
}

const w = (start: string, end: string): DayRule => ({ start, end });
const everyDay = (rule: DayRule): Record<Weekday, DayRule> => ({
  sun: rule,
  mon: rule,
  tue: rule,
  wed: rule,
  thu: rule,
  fri: rule,
  sat: rule,
});
const monSat = (rule: DayRule, sunday: DayRule): Record<Weekday, DayRule> => ({
  ...everyDay(rule),
  sun: sunday,
});
const THREE_PER_DAY: readonly StateFrequencyCap[] = [{ max: 3, windowHours: 24 }];

export const STATE_RULES: Readonly<Record<string, StateRule>> = {
  AL: {
    restrictions: [{ days: monSat(w('08:00', '20:00'), 'closed'), holidays: 'closed' }],
    confidence: 'P',
    source: '§2.1 Alabama (Ala. Admin. Code 770-X-5-.17)',
  },
  CT: {
    restrictions: [{ days: everyDay(w('09:00', '20:00')) }],
    confidence: 'S',
    source: '§2.1 Connecticut; §2.2 point 1 (9-8, not the stale 9-9)',
  },
  FL: {
    restrictions: [{ days: everyDay(w('08:00', '20:00')) }],
    frequencyCaps: THREE_PER_DAY,
    confidence: 'P',
    source: '§2.1 Florida (§ 501.616(6)); §5.1',
  },
  IL: {
    restrictions: [{ days: everyDay(w('09:00', '21:00')) }],
    confidence: 'V',
    source: '§2.1 Illinois; §2.2 point 6',
    note: '9:00 start for every channel: the platform cannot prove a call is not autodialed (§4.3).',
  },
  KY: {
    restrictions: [{ days: everyDay(w('10:00', '21:00')) }],
    confidence: 'V',
    source: '§2.1 Kentucky',
  },
  LA: {
    restrictions: [{ days: monSat(w('08:00', '20:00'), 'closed'), holidays: 'closed' }],
    confidence: 'V',
    source: '§2.1 Louisiana',
    note: 'The total ban during a declared state of emergency is not modelled (needs a live flag).',
  },
  MA: {
    restrictions: [{ days: everyDay(w('08:00', '20:00')) }],
    confidence: 'V',
    source: '§2.1 Massachusetts',
  },
  MD: {
    restrictions: [{ days: everyDay(w('08:00', '20:00')) }],
    frequencyCaps: THREE_PER_DAY,
    confidence: 'P',
    source: '§2.1 Maryland (Com. Law § 14-4502); §5.1',
  },
  ME: {
    restrictions: [{ days: everyDay(w('08:00', '21:00')) }],
    frequencyCaps: [{ max: 1, windowHours: 8 }],
    confidence: 'V',
    source: '§2.1 Maine',
    note: 'The 1 per 8 h cap is an unverified vendor claim, kept as the stricter reading.',
  },
  MI: {
    restrictions: [{ days: everyDay(w('09:00', '21:00')) }],
    confidence: 'V',
    source: '§2.1 Michigan',
  },
  MN: {
    restrictions: [{ days: everyDay(w('09:00', '21:00')) }],
    confidence: 'V',
    source: '§2.1 Minnesota',
  },
  MS: {
    restrictions: [
      { days: monSat(w('08:00', '20:00'), 'closed'), holidays: 'closed' },
      // "8am-8pm Central Standard Time": 8am CST is 9am CDT.
      { dstOnly: true, days: everyDay(w('09:00', '20:00')) },
    ],
    confidence: 'P',
    source: '§2.1 Mississippi (§ 77-3-723); §2.2 point 3',
    note: 'Holiday ban disputed (AG 2024: allowed); blocked until counsel confirms.',
  },
  NE: {
    restrictions: [
      {
        channels: ['voicemail'],
        days: { sun: w('13:00', '21:00') },
        holidays: w('13:00', '21:00'),
      },
    ],
    confidence: 'V',
    source: '§2.1 Nebraska (Neb. Admin. Code tit. 291 ch. 11 § 3)',
    note: 'Prerecorded messages only; voicemail drops are prerecorded.',
  },
  NJ: {
    restrictions: [{ days: everyDay(w('08:00', '21:00')) }],
    confidence: 'P',
    source: '§2.1 New Jersey (N.J.S.A. 56:8-128(d))',
  },
  NM: {
    restrictions: [{ days: everyDay(w('09:00', '21:00')) }],
    confidence: 'V',
    source: '§2.1 New Mexico',
  },
  NV: {
    restrictions: [{ days: everyDay(w('09:00', '20:00')) }],
    confidence: 'V',
    source: '§2.1 Nevada',
  },
  OK: {
    restrictions: [
      { days: everyDay(w('08:00', '20:00')) },
      // 15 O.S. § 755.1: dial-announcing devices (prerecorded) only from 9am.
      { channels: ['voicemail'], days: everyDay(w('09:00', '21:00')) },
    ],
    frequencyCaps: THREE_PER_DAY,
    confidence: 'P',
    source: '§2.1 Oklahoma (15 O.S. § 775C.1, § 755.1); §5.1',
  },
  PA: {
    restrictions: [{ days: monSat(w('08:00', '21:00'), w('13:30', '21:00')), holidays: 'closed' }],
    confidence: 'P',
    source: '§2.1 Pennsylvania (73 P.S. § 2245); §2.2 point 4',
    note: 'Sunday 13:30-21:00 is a vendor profile without a found statute: conservative, flagged.',
  },
  RI: {
    restrictions: [
      {
        days: {
          sun: 'closed',
          mon: w('09:00', '18:00'),
          tue: w('09:00', '18:00'),
          wed: w('09:00', '18:00'),
          thu: w('09:00', '18:00'),
          fri: w('09:00', '18:00'),
          sat: w('10:00', '17:00'),
        },
        holidays: 'closed',
      },
    ],
    confidence: 'V',
    source: '§2.1 Rhode Island (§ 5-61-3.6); §2.2 point 5',
    note: 'Hours not confirmed from the § 5-61-2(9) text.',
  },
  TX: {
    restrictions: [{ days: monSat(w('09:00', '21:00'), w('12:00', '21:00')) }],
    confidence: 'S',
    source: '§2.1 Texas (§ 301.051); §2.2 point 2',
  },
  UT: {
    restrictions: [{ days: monSat(w('08:00', '21:00'), 'closed'), holidays: 'closed' }],
    confidence: 'P',
    source: '§2.1 Utah (§ 13-25a-103(3))',
    note: 'The statute yields to prior express consent; applied to every marketing touch anyway.',
  },
  VA: {
    restrictions: [{ days: everyDay(w('08:00', '21:00')) }],
    // SB 1339 (2025), weak source: a STOP is honoured for ten years. The stricter reading is
    // taken: no new grant stands during those years.
    revocationYears: 10,
    confidence: 'P (hours); S-weak (ten years)',
    source: '§2.1 Virginia (§ 59.1-511; SB 1339 (2025) as reported)',
  },
  WA: {
    restrictions: [{ days: everyDay(w('08:00', '20:00')) }],
    confidence: 'P',
    source: '§2.1 Washington (RCW 19.158.040(2))',
  },
};
