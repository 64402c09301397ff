import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  HOLIDAY_RULES_FROM,
  type HolidayRule,
  STATE_HOLIDAY_RULES,
} from '../../../src/domain/compliance/data/holidays.js';
import {
  easterSunday,
  holidayCoverageGaps,
  holidayOn,
  stateHolidays,
} from '../../../src/domain/compliance/holiday-calendar.js';
import {
  STATES_WITH_HOLIDAY_RULES,
  tableCoverageGaps,
} from '../../../src/domain/compliance/tables.js';
import { CURATED_HOLIDAYS, CURATED_YEARS } from './holidays-curated.js';
import { EASTER, oracleHolidays } from './oracle-holidays.js';

const STATES = Object.keys(STATE_HOLIDAY_RULES);
const weekday = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();
const yearArb = fc.integer({ min: 2026, max: 2040 });

describe('holiday rules', () => {
  it('reproduce the hand-curated 2026-2027 lists exactly', () => {
    for (const state of STATES) {
      for (const year of CURATED_YEARS) {
        const curated = (CURATED_HOLIDAYS[state] ?? [])
          .map((h) => h.date)
          .filter((d) => d.startsWith(String(year)));
        expect([...stateHolidays(state, year).keys()].sort(), `${state} ${year}`).toEqual(
          [...new Set(curated)].sort(),
        );
      }
    }
  });

  it('compute Easter as the almanac does', () => {
    for (const [year, date] of Object.entries(EASTER)) {
      expect(new Date(easterSunday(Number(year))).toISOString().slice(0, 10)).toBe(date);
    }
  });

  it('agree with the oracle for every state in every year 2026-2040', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STATES), yearArb, (state, year) => {
        expect([...stateHolidays(state, year).keys()].sort()).toEqual(
          [...oracleHolidays(state, year)].sort(),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('keep the federal holidays on their weekdays and observe weekend ones', () => {
    fc.assert(
      fc.property(fc.constantFrom(...STATES), yearArb, (state, year) => {
        const days = stateHolidays(state, year);
        const named = (name: string) =>
          [...days].filter(([, n]) => n.split(' / ').some((x) => x.startsWith(name)));
        for (const [name, dow] of [
          ['Martin Luther King', 1],
          ["Washington's Birthday", 1],
          ['Memorial Day', 1],
          ['Labor Day', 1],
          ['Columbus Day', 1],
          ['Thanksgiving Day', 4],
        ] as const) {
          const hits = named(name);
          expect(hits, `${name} ${year}`).toHaveLength(1);
          expect(weekday(hits[0]![0])).toBe(dow);
        }
        for (const [md, name] of [
          ['07-04', 'Independence Day'],
          ['12-25', 'Christmas Day'],
          ['06-19', 'Juneteenth'],
        ] as const) {
          const date = `${year}-${md}`;
          expect(days.get(date)).toContain(name);
          const dow = weekday(date);
          if (dow === 6 || dow === 0) {
            const shifted = new Date(Date.parse(date) + (dow === 6 ? -1 : 1) * 86_400_000);
            expect(days.get(shifted.toISOString().slice(0, 10))).toContain(`${name} (observed)`);
          }
        }
        // Every year has at least the eleven federal holidays: nothing runs out.
        expect(days.size).toBeGreaterThanOrEqual(11);
      }),
      { numRuns: 300 },
    );
  });

  it('include the observed New Year of the next year on 31 December', () => {
    // 1 January 2033 is a Saturday.
    expect(holidayOn('PA', '2032-12-31')).toBe("New Year's Day (observed)");
    expect(holidayOn('PA', '2033-01-01')).toBe("New Year's Day");
  });

  it('place the state days', () => {
    expect(holidayOn('RI', '2028-08-14')).toBe('Victory Day');
    expect(holidayOn('RI', '2028-11-07')).toBe('Election Day');
    expect(holidayOn('TX', '2029-11-06')).toBeNull();
    expect(holidayOn('PA', '2029-11-06')).toBe('Election Day');
    expect(holidayOn('LA', '2028-02-29')).toBe('Mardi Gras');
    expect(holidayOn('UT', '2032-07-23')).toBe('Pioneer Day (observed)');
    expect(holidayOn('NE', '2028-04-28')).toBe('Arbor Day');
    expect(holidayOn('NE', '2028-11-24')).toBe('Day after Thanksgiving');
    expect(holidayOn('AL', '2030-04-22')).toBe('Confederate Memorial Day');
    expect(holidayOn('MS', '2030-04-29')).toBe('Confederate Memorial Day');
    expect(holidayOn('TX', '2030-12-25')).toBeNull();
  });

  it('take the stricter reading where the source is weak (issue 18)', () => {
    // Odd-year election days in Louisiana (governor, 2027) and Rhode Island.
    expect(holidayOn('LA', '2027-11-02')).toBe('General Election Day');
    expect(holidayOn('RI', '2029-11-06')).toBe('Election Day');
    // La. R.S. 1:55's All Saints' Day, and its Monday stand-in when it falls on a Sunday.
    expect(holidayOn('LA', '2027-11-01')).toBe("All Saints' Day");
    expect(holidayOn('LA', '2026-11-02')).toBe("All Saints' Day (observed)");
    // Pennsylvania's Flag Day on a Sunday (2026) and a Saturday (2025): the weekday too.
    expect(holidayOn('PA', '2026-06-15')).toBe('Flag Day (observed)');
    expect(holidayOn('PA', '2025-06-13')).toBe('Flag Day (observed)');
  });

  it('fail closed before the rules are known to hold', () => {
    expect(holidayOn('AL', `${HOLIDAY_RULES_FROM - 1}-06-02`)).toBe(
      `no AL holiday calendar for ${HOLIDAY_RULES_FROM - 1}`,
    );
  });
});

describe('table coverage', () => {
  it('covers the current and the next year, for years to come', () => {
    for (const year of [2026, 2027, 2028, 2035, 2040, 2099]) {
      expect(tableCoverageGaps(Date.UTC(year, 5, 1)), String(year)).toEqual([]);
    }
    expect(STATES_WITH_HOLIDAY_RULES.slice().sort()).toEqual(STATES.slice().sort());
  });

  it('reports a state without rules, a year before them and rules that ended', () => {
    const ended: HolidayRule[] = [{ kind: 'fixed', month: 7, day: 4, name: 'X', until: 2027 }];
    expect(holidayCoverageGaps([2027, 2028], ['ZZ', 'QQ'], { QQ: ended }, 2020)).toEqual([
      'ZZ: no holiday rules',
      'QQ: no holiday rule holds in 2028',
    ]);
    expect(holidayCoverageGaps([2019], ['QQ'], { QQ: ended }, 2020)).toEqual([
      'QQ: holiday rules start in 2020, not 2019',
    ]);
  });
});
