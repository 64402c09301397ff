/**
 * The oracle's own reading of the holiday rules in data/holidays.ts: it walks every day of the
 * year and tests each rule's definition literally, sharing no code with holiday-calendar.ts.
 * Easter comes from a published table, not a formula.
 */
import {
  HOLIDAY_RULES_FROM,
  type HolidayRule,
  STATE_HOLIDAY_RULES,
} from '../../../src/domain/compliance/data/holidays.js';

/** Western Easter Sunday, from the almanac. */
export const EASTER: Readonly<Record<number, string>> = {
  2020: '2020-04-12',
  2021: '2021-04-04',
  2022: '2022-04-17',
  2023: '2023-04-09',
  2024: '2024-03-31',
  2025: '2025-04-20',
  2026: '2026-04-05',
  2027: '2027-03-28',
  2028: '2028-04-16',
  2029: '2029-04-01',
  2030: '2030-04-21',
  2031: '2031-04-13',
  2032: '2032-03-28',
  2033: '2033-04-17',
  2034: '2034-04-09',
  2035: '2035-03-25',
  2036: '2036-04-13',
  2037: '2037-04-05',
  2038: '2038-04-25',
  2039: '2039-04-10',
  2040: '2040-04-01',
  2041: '2041-04-21',
};

const DAY = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function holds(rule: HolidayRule, year: number): boolean {
  return year >= (rule.from ?? -Infinity) && year <= (rule.until ?? Infinity);
}

/** Is `ms` (UTC midnight) the rule's own day in `year`, without the observed shift? */
function isRuleDay(rule: HolidayRule, year: number, ms: number): boolean {
  if (!holds(rule, year)) return false;
  if (rule.kind === 'easter') {
    const easter = EASTER[year];
    if (!easter) throw new Error(`oracle has no Easter for ${year}`);
    return ms === Date.parse(easter) + rule.offset * DAY;
  }
  const base = ms - (rule.kind === 'nth' ? (rule.offset ?? 0) : 0) * DAY;
  const d = new Date(base);
  if (d.getUTCFullYear() !== year || d.getUTCMonth() + 1 !== rule.month) return false;
  if (rule.kind === 'fixed') return d.getUTCDate() === rule.day;
  if (d.getUTCDay() !== rule.weekday) return false;
  // Count same-weekday days of the month before and after this one.
  const index = Math.floor((d.getUTCDate() - 1) / 7) + 1;
  const last = new Date(base + 7 * DAY).getUTCMonth() + 1 !== rule.month;
  return rule.n === -1 ? last : index === rule.n;
}

const cache = new Map<string, Set<string>>();

/** Every holiday date of the state in `year`, observed Fridays and Mondays included. */
export function oracleHolidays(state: string, year: number): Set<string> {
  const key = `${state}:${year}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const out = new Set<string>();
  for (const rule of STATE_HOLIDAY_RULES[state] ?? []) {
    for (let ms = Date.UTC(year - 1, 11, 1); ms < Date.UTC(year + 1, 1, 1); ms += DAY) {
      const ruleYear = new Date(ms - (rule.kind === 'nth' ? (rule.offset ?? 0) : 0) * DAY);
      if (!isRuleDay(rule, ruleYear.getUTCFullYear(), ms)) continue;
      out.add(dateOf(ms));
      const dow = new Date(ms).getUTCDay();
      if (rule.kind === 'fixed' && rule.observed && dow === 6) out.add(dateOf(ms - DAY));
      if (rule.kind === 'fixed' && rule.observed && dow === 0) out.add(dateOf(ms + DAY));
    }
  }
  for (const d of [...out]) if (!d.startsWith(String(year))) out.delete(d);
  cache.set(key, out);
  return out;
}

export function oracleIsHoliday(state: string, date: string): boolean {
  if (!STATE_HOLIDAY_RULES[state]) return false;
  const year = Number(date.slice(0, 4));
  if (year < HOLIDAY_RULES_FROM) return true;
  return oracleHolidays(state, year).has(date);
}
