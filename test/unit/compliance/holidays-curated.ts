/**
 * The hand-curated 2026-2027 holiday lists that the engine shipped before the calendars were
 * computed from rules: a fixed reference the rule table must reproduce exactly.
 */

export interface Holiday {
  readonly date: string;
  readonly name: string;
}

export const CURATED_YEARS: readonly number[] = [2026, 2027];

const h = (date: string, name: string): Holiday => ({ date, name });

const FEDERAL: readonly Holiday[] = [
  h('2026-01-01', "New Year's Day"),
  h('2026-01-19', 'Martin Luther King Jr. Day'),
  h('2026-02-16', "Washington's Birthday"),
  h('2026-05-25', 'Memorial Day'),
  h('2026-06-19', 'Juneteenth'),
  h('2026-07-03', 'Independence Day (observed)'),
  h('2026-07-04', 'Independence Day'),
  h('2026-09-07', 'Labor Day'),
  h('2026-10-12', 'Columbus Day'),
  h('2026-11-11', 'Veterans Day'),
  h('2026-11-26', 'Thanksgiving Day'),
  h('2026-12-25', 'Christmas Day'),
  h('2027-01-01', "New Year's Day"),
  h('2027-01-18', 'Martin Luther King Jr. Day'),
  h('2027-02-15', "Washington's Birthday"),
  h('2027-05-31', 'Memorial Day'),
  h('2027-06-18', 'Juneteenth (observed)'),
  h('2027-06-19', 'Juneteenth'),
  h('2027-07-04', 'Independence Day'),
  h('2027-07-05', 'Independence Day (observed)'),
  h('2027-09-06', 'Labor Day'),
  h('2027-10-11', 'Columbus Day'),
  h('2027-11-11', 'Veterans Day'),
  h('2027-11-25', 'Thanksgiving Day'),
  h('2027-12-24', 'Christmas Day (observed)'),
  h('2027-12-25', 'Christmas Day'),
  h('2027-12-31', "New Year's Day 2028 (observed)"),
];

const MARDI_GRAS = [h('2026-02-17', 'Mardi Gras'), h('2027-02-09', 'Mardi Gras')];
const GOOD_FRIDAY = [h('2026-04-03', 'Good Friday'), h('2027-03-26', 'Good Friday')];

export const CURATED_HOLIDAYS: Readonly<Record<string, readonly Holiday[]>> = {
  // Ala. Code § 1-3-8; Mardi Gras is a holiday in Baldwin and Mobile counties only.
  AL: [
    ...FEDERAL,
    ...MARDI_GRAS,
    h('2026-04-27', 'Confederate Memorial Day'),
    h('2026-06-01', "Jefferson Davis' Birthday"),
    h('2027-04-26', 'Confederate Memorial Day'),
    h('2027-06-07', "Jefferson Davis' Birthday"),
  ],
  // La. R.S. 1:55 (wider than the LPSC's list: stricter).
  // All Saints' Day and the odd-year election day: weak sources, the stricter reading (issue 18).
  LA: [
    ...FEDERAL,
    ...MARDI_GRAS,
    ...GOOD_FRIDAY,
    h('2026-11-01', "All Saints' Day"),
    h('2026-11-02', "All Saints' Day (observed)"),
    h('2026-11-03', 'General Election Day'),
    h('2027-11-01', "All Saints' Day"),
    h('2027-11-02', 'General Election Day'),
  ],
  // Miss. Code § 3-3-7.
  MS: [
    ...FEDERAL,
    h('2026-04-27', 'Confederate Memorial Day'),
    h('2027-04-26', 'Confederate Memorial Day'),
  ],
  // Neb. Rev. Stat. § 25-2221.
  NE: [
    ...FEDERAL,
    h('2026-04-24', 'Arbor Day'),
    h('2026-11-27', 'Day after Thanksgiving'),
    h('2027-04-30', 'Arbor Day'),
    h('2027-11-26', 'Day after Thanksgiving'),
  ],
  // 44 P.S. § 11.
  PA: [
    ...FEDERAL,
    ...GOOD_FRIDAY,
    h('2026-06-14', 'Flag Day'),
    h('2026-06-15', 'Flag Day (observed)'),
    h('2026-11-03', 'Election Day'),
    h('2027-06-14', 'Flag Day'),
    h('2027-11-02', 'Election Day'),
  ],
  // R.I. Gen. Laws § 25-1-1.
  RI: [
    ...FEDERAL,
    h('2026-08-10', 'Victory Day'),
    h('2026-11-03', 'Election Day'),
    h('2027-08-09', 'Victory Day'),
    h('2027-11-02', 'Election Day'),
  ],
  // Utah Code § 63G-1-301.
  UT: [
    ...FEDERAL,
    h('2026-07-24', 'Pioneer Day'),
    h('2027-07-23', 'Pioneer Day (observed)'),
    h('2027-07-24', 'Pioneer Day'),
  ],
};
