import { purposeOf } from './config.js';
import { toIso } from './instant.js';
import type { Location } from './location.js';
import {
  COMPILED_STATE_RULES,
  COUNTRY_RULES,
  type CompiledStateRule,
  holidayOn,
  type MinuteWindow,
  parseHhmm,
  WEEKDAYS,
} from './tables.js';
import type { CampaignComplianceConfig, Channel, Weekday } from './types.js';
import {
  DAY,
  formatWall,
  type Interval,
  isDstDay,
  isoDateOfDay,
  localDayAt,
  MINUTE,
  wallAt,
  wallRangeToUtc,
  weekdayOfDay,
} from './tz.js';

/** Part A point 4: 08:00-21:00 local, every touch, every zone. */
const FEDERAL = { start: 8 * 60, end: 21 * 60 };
/** How far ahead next_allowed_at is searched before it is reported as unknown (null). */
const HORIZON_DAYS = 370;

export interface QuietHoursInput {
  location: Location;
  channel: Channel;
  config?: CampaignComplianceConfig;
}

export interface QuietHoursZoneReport {
  zone: string;
  local_time: string;
  weekday: Weekday;
  holiday: string | null;
  /** The window applied on that local day; null when the day is closed. */
  window: { start: string; end: string } | null;
  inside: boolean;
}

export interface QuietHoursCheck {
  passed: boolean;
  code: 'quiet_hours' | 'location_unresolved' | null;
  zones: string[];
  state: string | null;
  /** Rule sets applied: federal always, the state's for marketing, the campaign's when set. */
  rules: string[];
  local: QuietHoursZoneReport[];
  next_allowed_at: string | null;
}

interface Rules {
  channel: Channel;
  /** The country's own hours (Canada): every touch, whatever the purpose. */
  country: CompiledStateRule | null;
  state: CompiledStateRule | null;
  campaign: { start: number; end: number; days: Set<number> | null } | null;
}

function compileRules(input: QuietHoursInput): Rules {
  const { location, config, channel } = input;
  const marketing = purposeOf(config) === 'marketing';
  const state = marketing && location.resolved && location.state;
  const w = config?.calling_window;
  const country = location.resolved && location.country ? location.country : null;
  return {
    channel,
    country: (country && COUNTRY_RULES.get(country)) || null,
    state: (state && COMPILED_STATE_RULES.get(state)) || null,
    campaign: w
      ? {
          start: parseHhmm(w.start),
          end: parseHhmm(w.end),
          days: w.days ? new Set(w.days.map((d) => WEEKDAYS.indexOf(d))) : null,
        }
      : null,
  };
}

function ruleNames(rules: Rules): string[] {
  const names = ['federal'];
  if (rules.country) names.push(`country:${rules.country.state}`);
  if (rules.state) names.push(`state:${rules.state.state}`);
  if (rules.campaign) names.push('campaign');
  return names;
}

/** The window of every applicable rule, intersected, for one local day in one zone. */
function dayWindow(
  zone: string,
  day: number,
  rules: Rules,
): { window: MinuteWindow; holiday: string | null } {
  const weekday = weekdayOfDay(day);
  let start = FEDERAL.start;
  let end = FEDERAL.end;
  let closed = false;
  const narrow = (w: MinuteWindow) => {
    if (w === null) closed = true;
    else {
      start = Math.max(start, w.start);
      end = Math.min(end, w.end);
    }
  };
  let holiday: string | null = null;
  for (const r of rules.country?.restrictions ?? []) {
    if (r.channels && !r.channels.includes(rules.channel)) continue;
    const w = r.days[weekday];
    if (w !== undefined) narrow(w);
  }
  if (rules.state) {
    holiday = holidayOn(rules.state.state, isoDateOfDay(day));
    for (const r of rules.state.restrictions) {
      if (r.channels && !r.channels.includes(rules.channel)) continue;
      if (r.dstOnly && !isDstDay(zone, day)) continue;
      const w = holiday !== null && r.holidays !== undefined ? r.holidays : r.days[weekday];
      if (w !== undefined) narrow(w);
    }
  }
  const c = rules.campaign;
  if (c) narrow(c.days && !c.days.has(weekday) ? null : c);
  return { window: closed || start >= end ? null : { start, end }, holiday };
}

/** Allowed UTC intervals of one zone, day by day; earlier local days all end before `fromMs`. */
function* zoneIntervals(zone: string, rules: Rules, fromMs: number, untilMs: number) {
  for (let day = localDayAt(zone, fromMs); day * DAY <= untilMs + DAY; day++) {
    const { window } = dayWindow(zone, day, rules);
    if (window) {
      yield* wallRangeToUtc(
        zone,
        day * DAY + window.start * MINUTE,
        day * DAY + window.end * MINUTE,
      );
    }
  }
}

/**
 * Earliest instant ≥ fromMs at which every zone is inside its window, or null within the horizon.
 * Walks each zone's sorted allowed intervals and jumps to the latest start until all overlap.
 */
function searchAllowed(zones: readonly string[], rules: Rules, fromMs: number): number | null {
  const untilMs = fromMs + HORIZON_DAYS * DAY;
  const iterators = zones.map((z) => zoneIntervals(z, rules, fromMs, untilMs));
  const current: (Interval | undefined)[] = iterators.map((it) => it.next().value ?? undefined);
  let t = fromMs;
  for (;;) {
    let moved = false;
    for (let i = 0; i < iterators.length; i++) {
      let iv = current[i];
      while (iv && iv.end <= t) iv = iterators[i]?.next().value ?? undefined;
      current[i] = iv;
      if (!iv) return null;
      if (iv.start > t) {
        t = iv.start;
        moved = true;
      }
    }
    if (!moved) return t;
    if (t > untilMs) return null;
  }
}

/** Earliest instant ≥ fromMs that passes quiet hours; null if unresolved or beyond the horizon. */
export function nextQuietAllowed(input: QuietHoursInput, fromMs: number): number | null {
  if (!input.location.resolved) return null;
  return searchAllowed(input.location.zones, compileRules(input), fromMs);
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export function checkQuietHours(input: QuietHoursInput, nowMs: number): QuietHoursCheck {
  const { location } = input;
  const rules = compileRules(input);
  if (!location.resolved) {
    return {
      passed: false,
      code: 'location_unresolved',
      zones: [],
      state: null,
      rules: ruleNames(rules),
      local: [],
      next_allowed_at: null,
    };
  }
  const local = location.zones.map((zone): QuietHoursZoneReport => {
    const wall = wallAt(zone, nowMs);
    const day = Math.floor(wall / DAY);
    const { window, holiday } = dayWindow(zone, day, rules);
    const minuteWall = wall - day * DAY;
    return {
      zone,
      local_time: formatWall(wall),
      weekday: WEEKDAYS[weekdayOfDay(day)] as Weekday,
      holiday,
      window: window && { start: hhmm(window.start), end: hhmm(window.end) },
      inside: !!window && minuteWall >= window.start * MINUTE && minuteWall < window.end * MINUTE,
    };
  });
  const passed = local.every((z) => z.inside);
  const next = passed ? null : searchAllowed(location.zones, rules, nowMs);
  return {
    passed,
    code: passed ? null : 'quiet_hours',
    zones: location.zones,
    state: location.state,
    rules: ruleNames(rules),
    local,
    next_allowed_at: next === null ? null : toIso(next),
  };
}
