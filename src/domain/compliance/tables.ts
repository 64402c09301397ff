/**
 * The reviewed data files of ./data, indexed for lookup and checked once at load:
 * a malformed row is a bug in a reviewed file, so it fails loudly at start-up, not per touch.
 */
import { type AreaCodeGroup, US_AREA_CODES } from './data/area-codes.js';
import { CANADA_RULE } from './data/canada.js';
import { NON_US_AREA_CODES } from './data/nanp-non-us.js';
import {
  type DayRule,
  STATE_RULES,
  type StateRule,
  type TouchChannel,
  type Weekday,
} from './data/state-rules.js';
import { holidayCoverageGaps } from './holiday-calendar.js';
import { isValidTimeZone } from './tz.js';

export { holidayOn } from './holiday-calendar.js';

export const WEEKDAYS: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
/** Countries whose numbers fall under US law: the states, DC and the territories. */
const US_COUNTRIES = new Set(['US', 'PR', 'VI', 'GU', 'MP', 'AS']);

export interface AreaCodeEntry {
  npa: number;
  region: string;
  country: string;
  us: boolean;
  zones: readonly string[];
}

/** Local minutes since midnight, start inclusive, end exclusive; null = closed. */
export type MinuteWindow = { start: number; end: number } | null;

export interface CompiledRestriction {
  channels: readonly TouchChannel[] | null;
  dstOnly: boolean;
  /** Indexed by weekday (0 = Sunday); undefined = not restricted that day. */
  days: readonly (MinuteWindow | undefined)[];
  holidays: MinuteWindow | undefined;
}

export interface CompiledStateRule {
  state: string;
  restrictions: readonly CompiledRestriction[];
  frequencyCaps: StateRule['frequencyCaps'];
  revocationYears: number | undefined;
  source: string;
}

export function parseHhmm(value: string): number {
  const m = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(value);
  const minutes = m ? Number(m[1]) * 60 + Number(m[2]) : Number.NaN;
  if (!(minutes >= 0 && minutes <= 24 * 60)) throw new RangeError(`bad HH:MM time: ${value}`);
  return minutes;
}

function compileDayRule(rule: DayRule | undefined, where: string): MinuteWindow | undefined {
  if (rule === undefined || rule === 'closed') return rule === 'closed' ? null : undefined;
  const start = parseHhmm(rule.start);
  const end = parseHhmm(rule.end);
  if (start >= end) throw new RangeError(`${where}: empty window ${rule.start}-${rule.end}`);
  return { start, end };
}

function buildAreaCodes(): Map<number, AreaCodeEntry> {
  const map = new Map<number, AreaCodeEntry>();
  const add = (group: AreaCodeGroup) => {
    for (const npa of group.npas) {
      if (map.has(npa)) throw new Error(`area code ${npa} listed twice`);
      const zones = group.npaZones?.[npa] ?? group.zones;
      for (const zone of zones) {
        if (!isValidTimeZone(zone)) throw new Error(`area code ${npa}: unknown zone ${zone}`);
      }
      map.set(npa, {
        npa,
        region: group.region,
        country: group.country,
        us: US_COUNTRIES.has(group.country),
        zones,
      });
    }
    for (const key of Object.keys(group.npaZones ?? {})) {
      if (!group.npas.includes(Number(key))) throw new Error(`npaZones ${key} not in its group`);
    }
  };
  for (const group of [...US_AREA_CODES, ...NON_US_AREA_CODES]) add(group);
  return map;
}

function compileRule(state: string, rule: StateRule): CompiledStateRule {
  const restrictions = rule.restrictions.map((r, i) => ({
    channels: r.channels ?? null,
    dstOnly: r.dstOnly ?? false,
    days: WEEKDAYS.map((d) => compileDayRule(r.days[d], `${state}[${i}].${d}`)),
    holidays: compileDayRule(r.holidays, `${state}[${i}].holidays`),
  }));
  return {
    state,
    restrictions,
    frequencyCaps: rule.frequencyCaps,
    revocationYears: rule.revocationYears,
    source: rule.source,
  };
}

function buildStateRules(): Map<string, CompiledStateRule> {
  const map = new Map<string, CompiledStateRule>();
  for (const [state, rule] of Object.entries(STATE_RULES)) map.set(state, compileRule(state, rule));
  return map;
}

/** Rules that bind every touch to a country's numbers, whatever the purpose: Canada's hours. */
export const COUNTRY_RULES: ReadonlyMap<string, CompiledStateRule> = new Map([
  ['CA', compileRule('CA', CANADA_RULE)],
]);

export const AREA_CODES: ReadonlyMap<number, AreaCodeEntry> = buildAreaCodes();
export const COMPILED_STATE_RULES: ReadonlyMap<string, CompiledStateRule> = buildStateRules();
/** States whose rules treat holidays differently from ordinary days. */
export const STATES_WITH_HOLIDAY_RULES: readonly string[] = [...COMPILED_STATE_RULES.values()]
  .filter((r) => r.restrictions.some((x) => x.holidays !== undefined))
  .map((r) => r.state);

/**
 * What the data tables fail to cover in the year of `nowMs` and the next one; empty when all is
 * covered. The server logs these at start and exports their count as a metric.
 */
export function tableCoverageGaps(nowMs: number): string[] {
  const year = new Date(nowMs).getUTCFullYear();
  return holidayCoverageGaps([year, year + 1], STATES_WITH_HOLIDAY_RULES);
}
