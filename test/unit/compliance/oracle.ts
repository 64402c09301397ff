/**
 * A brute-force reference for the compliance engine: it asks, minute by minute, whether a touch
 * placed at that instant would pass, reading the raw data files and Intl directly. It shares no
 * code with src/ so that property tests can compare the engine's interval walk against it.
 */
import { STATE_RULES, type Weekday } from '../../../src/domain/compliance/data/state-rules.js';
import type { CallingWindow, Channel, PlacedTouch } from '../../../src/domain/compliance/index.js';
import { oracleIsHoliday } from './oracle-holidays.js';

const MIN = 60_000;
const SLOT = 15 * MIN;
const NAMES: Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

export interface OracleCase {
  zones: string[];
  /** Set only when state rules apply: a US state and a marketing touch. */
  stateForRules: string | null;
  /** A Canadian number: the CRTC telemarketing hours bind every touch. */
  canada?: boolean;
  channel: Channel;
  campaign?: CallingWindow;
  /** Frequency: caps to enforce (scope 'all' or a channel) and the placed touches. */
  caps?: { scope: 'all' | Channel; windowMs: number; max: number }[];
  history?: { at: number; channel: Channel }[];
}

interface Local {
  date: string;
  weekday: Weekday;
  minute: number;
  dst: boolean;
}

const DAY_MS = 24 * 60 * MIN;
const formats = new Map<string, Intl.DateTimeFormat>();
const slotCache = new Map<string, Map<number, { offset: number; dst: boolean }>>();
const dates = new Map<number, string>();

/** Offset and DST flag at the start of the 15-minute slot (zones here change only on :00/:30). */
function slotInfo(zone: string, ms: number) {
  const slot = Math.floor(ms / SLOT) * SLOT;
  let zoneCache = slotCache.get(zone);
  if (!zoneCache) {
    zoneCache = new Map();
    slotCache.set(zone, zoneCache);
  }
  let info = zoneCache.get(slot);
  if (!info) {
    let f = formats.get(zone);
    if (!f) {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        timeZoneName: 'short',
      });
      formats.set(zone, f);
    }
    const p = Object.fromEntries(f.formatToParts(slot).map((x) => [x.type, x.value]));
    const wall = Date.UTC(+p.year!, +p.month! - 1, +p.day!, +p.hour!, +p.minute!);
    // US zone abbreviations name daylight time "xDT".
    info = { offset: wall - slot, dst: /DT$/.test(p.timeZoneName ?? '') };
    zoneCache.set(slot, info);
  }
  return info;
}

function local(zone: string, ms: number): Local {
  const { offset, dst } = slotInfo(zone, ms);
  const wall = ms + offset;
  const day = Math.floor(wall / DAY_MS);
  let date = dates.get(day);
  if (date === undefined) {
    date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    dates.set(day, date);
  }
  return {
    date,
    weekday: NAMES[(((day + 4) % 7) + 7) % 7]!,
    minute: (wall - day * DAY_MS) / MIN,
    dst,
  };
}

const hm = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));

function isHoliday(state: string, date: string): boolean {
  return oracleIsHoliday(state, date);
}

export function quietOk(c: OracleCase, ms: number): boolean {
  for (const zone of c.zones) {
    const l = local(zone, ms);
    if (l.minute < 8 * 60 || l.minute >= 21 * 60) return false;
    if (c.canada) {
      // CRTC UTR Part III s. 11: 9:00-21:30 weekdays, 10:00-18:00 weekends.
      const weekend = l.weekday === 'sat' || l.weekday === 'sun';
      const [open, close] = weekend ? [10 * 60, 18 * 60] : [9 * 60, 21 * 60 + 30];
      if (l.minute < open || l.minute >= close) return false;
    }
    const rule = c.stateForRules ? STATE_RULES[c.stateForRules] : undefined;
    for (const r of rule?.restrictions ?? []) {
      if (r.channels && !r.channels.includes(c.channel)) continue;
      if (r.dstOnly && !l.dst) continue;
      const day =
        r.holidays !== undefined && isHoliday(c.stateForRules!, l.date)
          ? r.holidays
          : r.days[l.weekday];
      if (day === undefined) continue;
      if (day === 'closed' || l.minute < hm(day.start) || l.minute >= hm(day.end)) return false;
    }
    const w = c.campaign;
    if (w) {
      if (w.days && !w.days.includes(l.weekday)) return false;
      if (l.minute < hm(w.start) || l.minute >= hm(w.end)) return false;
    }
  }
  return true;
}

export function frequencyOk(c: OracleCase, ms: number): boolean {
  for (const cap of c.caps ?? []) {
    if (cap.scope !== 'all' && cap.scope !== c.channel) continue;
    const n = (c.history ?? []).filter(
      (t) => (cap.scope === 'all' || t.channel === cap.scope) && t.at > ms - cap.windowMs,
    ).length;
    if (n >= cap.max) return false;
  }
  return true;
}

/** First instant ≥ from (then whole minutes) where `ok` holds, scanning at most `limitMs`. */
export function firstOk(ok: (ms: number) => boolean, from: number, limitMs: number): number | null {
  if (ok(from)) return from;
  for (let m = Math.floor(from / MIN) * MIN + MIN; m <= from + limitMs; m += MIN) {
    if (ok(m)) return m;
  }
  return null;
}

export function toOracleHistory(history: readonly PlacedTouch[]) {
  return history.map((t) => ({ at: Number(t.at), channel: t.channel }));
}
