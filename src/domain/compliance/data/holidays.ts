/**
 * Holiday RULES for the states whose rules restrict touches on holidays. Dates are computed for
 * any year (holiday-calendar.ts); only which days each state keeps is data.
 *
 * _source: /work/shared/compliance-rules.md Part B §2.1 (AL, LA, MS, PA, RI, UT ban holidays;
 * NE limits prerecorded messages on holidays), §2.2 point 3 (MS kept) and §2.3 (curated list,
 * reviewed yearly). Each list is the union of the federal holidays (5 U.S.C. 6103) and the
 * state's own legal holidays, with BOTH the calendar date and the observed weekday when a holiday
 * with `observed` falls on a weekend (Saturday → Friday, Sunday → Monday): the stricter reading,
 * since the sources do not say which one the bans mean.
 *
 * Why our own rules and not the `date-holidays` package: its state lists differ from the curated
 * ones (it adds Mardi Gras, Good Friday and Election Day to LA in every year, and lacks the
 * observed Friday/Monday pairs kept here), so it would need a per-state filter and override table
 * as large as this one, plus a dependency with its own yearly data churn.
 */

export type WeekdayIndex = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export type HolidayRule = {
  readonly name: string;
  /** First and last year the rule holds (law changes); absent: open-ended. */
  readonly from?: number;
  readonly until?: number;
} & (
  | {
      readonly kind: 'fixed';
      readonly month: number;
      readonly day: number;
      readonly observed?: true;
    }
  /** The n-th (1-5, or -1 for the last) weekday of the month, plus `offset` days. */
  | {
      readonly kind: 'nth';
      readonly month: number;
      readonly weekday: WeekdayIndex;
      readonly n: 1 | 2 | 3 | 4 | -1;
      readonly offset?: number;
    }
  /** Days from Western (Gregorian) Easter Sunday. */
  | { readonly kind: 'easter'; readonly offset: number }
);

const MON = 1;
const THU = 4;
const FRI = 5;

const FEDERAL: readonly HolidayRule[] = [
  { kind: 'fixed', month: 1, day: 1, observed: true, name: "New Year's Day" },
  { kind: 'nth', month: 1, weekday: MON, n: 3, name: 'Martin Luther King Jr. Day' },
  { kind: 'nth', month: 2, weekday: MON, n: 3, name: "Washington's Birthday" },
  { kind: 'nth', month: 5, weekday: MON, n: -1, name: 'Memorial Day' },
  { kind: 'fixed', month: 6, day: 19, observed: true, name: 'Juneteenth', from: 2021 },
  { kind: 'fixed', month: 7, day: 4, observed: true, name: 'Independence Day' },
  { kind: 'nth', month: 9, weekday: MON, n: 1, name: 'Labor Day' },
  { kind: 'nth', month: 10, weekday: MON, n: 2, name: 'Columbus Day' },
  { kind: 'fixed', month: 11, day: 11, observed: true, name: 'Veterans Day' },
  { kind: 'nth', month: 11, weekday: THU, n: 4, name: 'Thanksgiving Day' },
  { kind: 'fixed', month: 12, day: 25, observed: true, name: 'Christmas Day' },
];

const MARDI_GRAS: HolidayRule = { kind: 'easter', offset: -47, name: 'Mardi Gras' };
const GOOD_FRIDAY: HolidayRule = { kind: 'easter', offset: -2, name: 'Good Friday' };
/**
 * The Tuesday after the first Monday of November, in EVERY year: Louisiana elects its governor in
 * odd years and Rhode Island holds odd-year local and special elections, and the sources do not
 * say whether the statutes' "general election day" means only the even-year federal ones. A weak
 * source takes the stricter reading (compliance-rules.md).
 */
const electionDay = (name: string): HolidayRule => ({
  kind: 'nth',
  month: 11,
  weekday: MON,
  n: 1,
  offset: 1,
  name,
});

export const STATE_HOLIDAY_RULES: Readonly<Record<string, readonly HolidayRule[]>> = {
  // Ala. Code § 1-3-8; Mardi Gras is a holiday in Baldwin and Mobile counties only.
  AL: [
    ...FEDERAL,
    MARDI_GRAS,
    { kind: 'nth', month: 4, weekday: MON, n: 4, name: 'Confederate Memorial Day' },
    { kind: 'nth', month: 6, weekday: MON, n: 1, name: "Jefferson Davis' Birthday" },
  ],
  // La. R.S. 1:55 (wider than the LPSC's list: stricter). All Saints' Day is in 1:55 but in no
  // vendor table we saw: a weak source, so it is kept, with a weekday stand-in when on a weekend.
  LA: [
    ...FEDERAL,
    MARDI_GRAS,
    GOOD_FRIDAY,
    { kind: 'fixed', month: 11, day: 1, observed: true, name: "All Saints' Day" },
    electionDay('General Election Day'),
  ],
  // Miss. Code § 3-3-7.
  MS: [
    ...FEDERAL,
    { kind: 'nth', month: 4, weekday: MON, n: -1, name: 'Confederate Memorial Day' },
  ],
  // Neb. Rev. Stat. § 25-2221.
  NE: [
    ...FEDERAL,
    { kind: 'nth', month: 4, weekday: FRI, n: -1, name: 'Arbor Day' },
    { kind: 'nth', month: 11, weekday: THU, n: 4, offset: 1, name: 'Day after Thanksgiving' },
  ],
  // 44 P.S. § 11.
  PA: [
    ...FEDERAL,
    GOOD_FRIDAY,
    // Whether Flag Day on a weekend moves to a weekday is not in the sources: both days count.
    { kind: 'fixed', month: 6, day: 14, observed: true, name: 'Flag Day' },
    electionDay('Election Day'),
  ],
  // R.I. Gen. Laws § 25-1-1.
  RI: [
    ...FEDERAL,
    { kind: 'nth', month: 8, weekday: MON, n: 2, name: 'Victory Day' },
    electionDay('Election Day'),
  ],
  // Utah Code § 63G-1-301.
  UT: [...FEDERAL, { kind: 'fixed', month: 7, day: 24, observed: true, name: 'Pioneer Day' }],
};

/** Years the rules are known to describe; outside them the engine fails closed. */
export const HOLIDAY_RULES_FROM = 2021;
