/**
 * Computes each state's holiday calendar for any year from the rules in data/holidays.ts, and
 * reports when a rule table does not cover a year (the start-up warning and metric read this).
 */
import { HOLIDAY_RULES_FROM, type HolidayRule, STATE_HOLIDAY_RULES } from './data/holidays.js';

const DAY_MS = 86_400_000;

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Gregorian Easter Sunday (anonymous Gregorian algorithm), as UTC midnight ms. */
export function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  if (n > 0) {
    const first = Date.UTC(year, month - 1, 1);
    const shift = (weekday - new Date(first).getUTCDay() + 7) % 7;
    return first + (shift + (n - 1) * 7) * DAY_MS;
  }
  const last = Date.UTC(year, month, 0);
  return last - ((new Date(last).getUTCDay() - weekday + 7) % 7) * DAY_MS;
}

export function ruleHolds(rule: HolidayRule, year: number): boolean {
  if (rule.from !== undefined && year < rule.from) return false;
  return !(rule.until !== undefined && year > rule.until);
}

/** Dates (UTC midnight ms) a rule produces for its occurrence in `year`, observed day included. */
function occurrences(rule: HolidayRule, year: number): { ms: number; name: string }[] {
  if (!ruleHolds(rule, year)) return [];
  if (rule.kind === 'easter') {
    return [{ ms: easterSunday(year) + rule.offset * DAY_MS, name: rule.name }];
  }
  if (rule.kind === 'nth') {
    const ms = nthWeekday(year, rule.month, rule.weekday, rule.n) + (rule.offset ?? 0) * DAY_MS;
    return [{ ms, name: rule.name }];
  }
  const ms = Date.UTC(year, rule.month - 1, rule.day);
  const out = [{ ms, name: rule.name }];
  const dow = new Date(ms).getUTCDay();
  if (rule.observed && (dow === 0 || dow === 6)) {
    out.push({ ms: ms + (dow === 6 ? -1 : 1) * DAY_MS, name: `${rule.name} (observed)` });
  }
  return out;
}

/** date → name for one state and year; two names on one date are joined. */
export function stateHolidays(
  state: string,
  year: number,
  rules: Readonly<Record<string, readonly HolidayRule[]>> = STATE_HOLIDAY_RULES,
): Map<string, string> {
  const byDate = new Map<string, string>();
  // An observed day can cross the year boundary (New Year's Day on a Saturday → 31 December).
  for (const y of [year - 1, year, year + 1]) {
    for (const rule of rules[state] ?? []) {
      for (const { ms, name } of occurrences(rule, y)) {
        const date = iso(ms);
        if (Number(date.slice(0, 4)) !== year) continue;
        const prior = byDate.get(date);
        byDate.set(date, prior && prior !== name ? `${prior} / ${name}` : name);
      }
    }
  }
  return byDate;
}

const cache = new Map<string, Map<string, string>>();

/**
 * The holiday name on that local date for the state, or null. Before HOLIDAY_RULES_FROM the
 * rules are not known to hold, and every day counts as a holiday (fail closed).
 */
export function holidayOn(state: string, isoDate: string): string | null {
  if (!STATE_HOLIDAY_RULES[state]) return null;
  const year = Number(isoDate.slice(0, 4));
  if (year < HOLIDAY_RULES_FROM) return `no ${state} holiday calendar for ${year}`;
  const key = `${state}:${year}`;
  let calendar = cache.get(key);
  if (!calendar) {
    calendar = stateHolidays(state, year);
    cache.set(key, calendar);
  }
  return calendar.get(isoDate) ?? null;
}

/**
 * Coverage gaps for the given years: a state whose rules ban touches on holidays but has no
 * holiday rules, a year before the rules are known to hold, or a year in which the rules yield no
 * holiday at all (every rule ended with `until`). Empty when every table covers every year.
 */
export function holidayCoverageGaps(
  years: readonly number[],
  statesWithHolidayBans: readonly string[],
  rules: Readonly<Record<string, readonly HolidayRule[]>> = STATE_HOLIDAY_RULES,
  rulesFrom = HOLIDAY_RULES_FROM,
): string[] {
  const gaps: string[] = [];
  for (const state of statesWithHolidayBans) {
    if (!rules[state]) {
      gaps.push(`${state}: no holiday rules`);
      continue;
    }
    for (const year of years) {
      if (year < rulesFrom) gaps.push(`${state}: holiday rules start in ${rulesFrom}, not ${year}`);
      else if (stateHolidays(state, year, rules).size === 0) {
        gaps.push(`${state}: no holiday rule holds in ${year}`);
      }
    }
  }
  return gaps;
}
