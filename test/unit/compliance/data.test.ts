import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import {
  HOLIDAY_YEARS,
  STATE_HOLIDAYS,
} from '../../../src/domain/outbound/compliance/data/holidays.js';
import { STATE_RULES } from '../../../src/domain/outbound/compliance/data/state-rules.js';
import {
  AREA_CODES,
  COMPILED_STATE_RULES,
} from '../../../src/domain/outbound/compliance/tables.js';

const GEOGRAPHIC = new Set(['FIXED_LINE', 'MOBILE', 'FIXED_LINE_OR_MOBILE']);
const US_LAW = new Set(['US', 'PR', 'VI', 'GU', 'MP', 'AS']);
/** In the table ahead of libphonenumber-js 1.13.16 (vendor-listed overlay). */
const AHEAD_OF_LIBPHONENUMBER = new Set([679]);

function libphonenumberView(npa: number) {
  for (const nxx of ['234', '456', '789', '987']) {
    const p = parsePhoneNumberFromString(`+1${npa}${nxx}4567`);
    if (p?.isValid()) return { country: p.country, type: p.getType() };
  }
  return null;
}

describe('area code table', () => {
  it('covers every geographic NANP area code libphonenumber-js accepts for US law', () => {
    const missing: number[] = [];
    for (let npa = 200; npa <= 999; npa++) {
      const view = libphonenumberView(npa);
      if (view && US_LAW.has(view.country ?? '') && GEOGRAPHIC.has(view.type ?? '')) {
        if (!AREA_CODES.get(npa)?.us) missing.push(npa);
      }
    }
    expect(missing).toEqual([]);
  });

  it('lists only area codes libphonenumber-js knows, in the same country', () => {
    const mismatched: string[] = [];
    for (const [npa, entry] of AREA_CODES) {
      if (AHEAD_OF_LIBPHONENUMBER.has(npa)) continue;
      const view = libphonenumberView(npa);
      // libphonenumber-js's Caribbean patterns reject our probe numbers; US and Canada must match.
      if (entry.country !== 'US' && entry.country !== 'CA' && !view) continue;
      if (view?.country !== entry.country)
        mismatched.push(`${npa}:${view?.country}/${entry.country}`);
    }
    expect(mismatched).toEqual([]);
  });

  it('holds the ~360 US geographic area codes and no non-geographic ones', () => {
    const us = [...AREA_CODES.values()].filter((e) => e.us);
    expect(us.length).toBeGreaterThan(360);
    for (const npa of [500, 521, 533, 544, 600, 700, 800, 833, 844, 855, 866, 877, 888, 900]) {
      expect(AREA_CODES.has(npa), String(npa)).toBe(false);
    }
  });

  it.each([
    [212, 'NY', ['America/New_York']],
    [213, 'CA', ['America/Los_Angeles']],
    [305, 'FL', ['America/New_York']],
    [312, 'IL', ['America/Chicago']],
    [404, 'GA', ['America/New_York']],
    [602, 'AZ', ['America/Phoenix']],
    [702, 'NV', ['America/Los_Angeles']],
    [801, 'UT', ['America/Denver']],
    [808, 'HI', ['Pacific/Honolulu']],
    [915, 'TX', ['America/Denver']],
    [214, 'TX', ['America/Chicago']],
    [865, 'TN', ['America/New_York']],
    [615, 'TN', ['America/Chicago']],
    [401, 'RI', ['America/New_York']],
    [202, 'DC', ['America/New_York']],
    [787, 'PR', ['America/Puerto_Rico']],
    [340, 'VI', ['America/St_Thomas']],
    [671, 'GU', ['Pacific/Guam']],
    [670, 'MP', ['Pacific/Saipan']],
    [684, 'AS', ['Pacific/Pago_Pago']],
  ])('%i is %s in %j', (npa, state, zones) => {
    const entry = AREA_CODES.get(npa);
    expect(entry?.region).toBe(state);
    expect(entry?.us).toBe(true);
    expect(entry?.zones).toEqual(zones);
  });

  it.each([
    [850, 'FL', ['America/Chicago', 'America/New_York']],
    [448, 'FL', ['America/Chicago', 'America/New_York']],
    [208, 'ID', ['America/Boise', 'America/Los_Angeles']],
    [986, 'ID', ['America/Boise', 'America/Los_Angeles']],
    [605, 'SD', ['America/Chicago', 'America/Denver']],
    [701, 'ND', ['America/Chicago', 'America/Denver']],
    [308, 'NE', ['America/Chicago', 'America/Denver']],
    [620, 'KS', ['America/Chicago', 'America/Denver']],
    [785, 'KS', ['America/Chicago', 'America/Denver']],
    [541, 'OR', ['America/Los_Angeles', 'America/Boise']],
    [775, 'NV', ['America/Los_Angeles', 'America/Denver']],
    [928, 'AZ', ['America/Phoenix', 'America/Denver']],
    [906, 'MI', ['America/Menominee', 'America/Detroit']],
    [270, 'KY', ['America/Chicago', 'America/Kentucky/Louisville']],
    [606, 'KY', ['America/Chicago', 'America/Kentucky/Louisville']],
    [423, 'TN', ['America/Chicago', 'America/New_York']],
    [812, 'IN', ['America/Chicago', 'America/Indiana/Indianapolis']],
    [219, 'IN', ['America/Chicago', 'America/Indiana/Indianapolis']],
    [907, 'AK', ['America/Anchorage', 'America/Adak']],
  ])('split area code %i (%s) lists every zone', (npa, state, zones) => {
    expect(AREA_CODES.get(npa)?.region).toBe(state);
    expect(AREA_CODES.get(npa)?.zones).toEqual(zones);
  });

  it('marks Canada and the Caribbean as outside US law', () => {
    expect(AREA_CODES.get(416)).toMatchObject({ country: 'CA', region: 'CA-ON', us: false });
    expect(AREA_CODES.get(807)?.zones).toEqual(['America/Toronto', 'America/Winnipeg']);
    expect(AREA_CODES.get(876)).toMatchObject({ country: 'JM', us: false });
    // Montserrat's region code is not Mississippi's.
    expect(AREA_CODES.get(664)).toMatchObject({ country: 'MS', us: false });
  });
});

describe('state rules', () => {
  it('keys every rule by a US state that has area codes', () => {
    const states = new Set([...AREA_CODES.values()].filter((e) => e.us).map((e) => e.region));
    for (const state of Object.keys(STATE_RULES)) expect(states.has(state), state).toBe(true);
    expect(COMPILED_STATE_RULES.size).toBe(Object.keys(STATE_RULES).length);
  });

  it('keeps the conflict resolutions of Part B §2.2', () => {
    expect(STATE_RULES.CT?.restrictions[0]?.days.mon).toEqual({ start: '09:00', end: '20:00' });
    expect(STATE_RULES.TX?.restrictions[0]?.days.sun).toEqual({ start: '12:00', end: '21:00' });
    expect(STATE_RULES.PA?.restrictions[0]?.days.sun).toEqual({ start: '13:30', end: '21:00' });
    expect(STATE_RULES.MS?.restrictions[0]?.holidays).toBe('closed');
    expect(STATE_RULES.IL?.restrictions[0]?.days.mon).toEqual({ start: '09:00', end: '21:00' });
    for (const s of ['FL', 'OK', 'MD']) {
      expect(STATE_RULES[s]?.frequencyCaps).toEqual([{ max: 3, windowHours: 24 }]);
    }
  });

  it('has a holiday calendar for every state whose rules name holidays', () => {
    for (const [state, rule] of Object.entries(STATE_RULES)) {
      if (rule.restrictions.some((r) => r.holidays !== undefined)) {
        expect(STATE_HOLIDAYS[state], state).toBeDefined();
      }
    }
    expect(Object.keys(STATE_HOLIDAYS).sort()).toEqual(['AL', 'LA', 'MS', 'NE', 'PA', 'RI', 'UT']);
  });
});

describe('holiday calendars', () => {
  const weekday = (date: string) => new Date(`${date}T12:00:00Z`).getUTCDay();
  const nthWeekday = (year: number, month: number, dow: number, n: number) => {
    const first = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
    const day = 1 + ((dow - first + 7) % 7) + (n - 1) * 7;
    return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  };
  const dates = (state: string) => new Set((STATE_HOLIDAYS[state] ?? []).map((h) => h.date));

  it.each(HOLIDAY_YEARS.map((y) => [y]))('places the floating federal holidays of %i', (year) => {
    const expected = [
      nthWeekday(year, 1, 1, 3), // MLK
      nthWeekday(year, 2, 1, 3), // Washington
      nthWeekday(year, 9, 1, 1), // Labor
      nthWeekday(year, 10, 1, 2), // Columbus
      nthWeekday(year, 11, 4, 4), // Thanksgiving
    ];
    for (const state of Object.keys(STATE_HOLIDAYS)) {
      for (const d of expected) expect(dates(state).has(d), `${state} ${d}`).toBe(true);
    }
  });

  it('adds the observed weekday of weekend holidays', () => {
    for (const d of ['2026-07-03', '2027-06-18', '2027-07-05', '2027-12-24', '2027-12-31']) {
      expect(dates('PA').has(d), d).toBe(true);
    }
    expect(dates('UT').has('2027-07-23')).toBe(true);
  });

  it('includes state-specific days', () => {
    expect(dates('UT').has('2026-07-24')).toBe(true);
    expect(dates('RI').has('2026-08-10')).toBe(true);
    expect(dates('AL').has('2026-04-27')).toBe(true);
    expect(dates('LA').has('2026-02-17')).toBe(true);
    expect(weekday('2026-02-17')).toBe(2);
    expect(dates('PA').has('2027-03-26')).toBe(true);
    expect(weekday('2027-03-26')).toBe(5);
  });

  it('keeps every date on a real day of a covered year', () => {
    for (const list of Object.values(STATE_HOLIDAYS)) {
      for (const { date } of list) {
        expect(new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10)).toBe(date);
        expect(HOLIDAY_YEARS).toContain(Number(date.slice(0, 4)));
      }
    }
  });
});
