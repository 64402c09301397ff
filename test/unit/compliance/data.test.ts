import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { describe, expect, it } from 'vitest';
import { STATE_HOLIDAY_RULES } from '../../../src/domain/compliance/data/holidays.js';
import { STATE_RULES } from '../../../src/domain/compliance/data/state-rules.js';
import { AREA_CODES, COMPILED_STATE_RULES } from '../../../src/domain/compliance/tables.js';

const GEOGRAPHIC = new Set(['FIXED_LINE', 'MOBILE', 'FIXED_LINE_OR_MOBILE']);
const US_LAW = new Set(['US', 'PR', 'VI', 'GU', 'MP', 'AS']);
/** Overlays in service that libphonenumber-js 1.13.16's metadata does not know yet. */
const AHEAD_OF_LIBPHONENUMBER = new Set([357, 436, 624, 679, 861]);

function libphonenumberView(npa: number) {
  // Several exchanges per NPA: libphonenumber's patterns are per NPA-NXX range, not per NPA.
  for (const nxx of ['234', '456', '789', '987', '222', '333', '201', '300', '500', '600', '800']) {
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

  it('is ahead of libphonenumber-js only where NANPA opened overlays it lacks', () => {
    for (const npa of AHEAD_OF_LIBPHONENUMBER) {
      expect(AREA_CODES.get(npa)?.us, String(npa)).toBe(true);
      expect(libphonenumberView(npa), String(npa)).toBeNull();
    }
  });

  it.each([
    [436, 'OH', ['America/New_York']],
    [624, 'NY', ['America/New_York']],
    [861, 'IL', ['America/Chicago']],
    [357, 'CA', ['America/Los_Angeles']],
  ])('knows the new overlay %i (%s)', (npa, state, zones) => {
    expect(AREA_CODES.get(npa)).toMatchObject({ region: state, us: true, zones });
  });

  it.each([
    [402, 'NE', ['America/Chicago']],
    [531, 'NE', ['America/Chicago']],
    [679, 'MI', ['America/Detroit']],
    [947, 'MI', ['America/Detroit']],
  ])('overlay %i (%s) has only the zone of the area it overlays', (npa, state, zones) => {
    expect(AREA_CODES.get(npa)?.region).toBe(state);
    expect(AREA_CODES.get(npa)?.zones).toEqual(zones);
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
        expect(STATE_HOLIDAY_RULES[state], state).toBeDefined();
      }
    }
    expect(Object.keys(STATE_HOLIDAY_RULES).sort()).toEqual([
      'AL',
      'LA',
      'MS',
      'NE',
      'PA',
      'RI',
      'UT',
    ]);
  });
});
