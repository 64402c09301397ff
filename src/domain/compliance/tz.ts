/**
 * Time-zone arithmetic on epoch milliseconds with nothing but Intl.DateTimeFormat.
 *
 * "Wall" milliseconds are the local wall-clock reading expressed as if it were UTC, so a local
 * day is `Math.floor(wall / DAY)` and the offset is `wall - utc`.
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface Interval {
  start: number;
  end: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

export function isValidTimeZone(zone: string): boolean {
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's canonical name (e.g. `US/Eastern` → `America/New_York`); throws on unknown zones. */
export function canonicalZone(zone: string): string {
  return formatter(zone).resolvedOptions().timeZone;
}

/** Offset (wall − UTC) in ms at the instant; Intl has second resolution, so sub-seconds are dropped. */
export function offsetAt(zone: string, ms: number): number {
  const fields = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatter(zone).formatToParts(ms)) {
    if (part.type in fields) fields[part.type as keyof typeof fields] = Number(part.value);
  }
  const wall = Date.UTC(
    fields.year,
    fields.month - 1,
    fields.day,
    fields.hour,
    fields.minute,
    fields.second,
  );
  return wall - Math.floor(ms / 1000) * 1000;
}

export function wallAt(zone: string, ms: number): number {
  return ms + offsetAt(zone, ms);
}

export function localDayAt(zone: string, ms: number): number {
  return Math.floor(wallAt(zone, ms) / DAY);
}

/** 0 = Sunday; day 0 (1970-01-01) was a Thursday. */
export function weekdayOfDay(day: number): number {
  return (((day + 4) % 7) + 7) % 7;
}

export function isoDateOfDay(day: number): string {
  return new Date(day * DAY).toISOString().slice(0, 10);
}

/** Local date-time 'YYYY-MM-DDTHH:MM' of a wall reading. */
export function formatWall(wall: number): string {
  return new Date(wall).toISOString().slice(0, 16);
}

/** Whether the local day runs on daylight saving time: its noon offset beats the year's standard. */
export function isDstDay(zone: string, day: number): boolean {
  const noonWall = day * DAY + 12 * HOUR;
  const noon = noonWall - offsetAt(zone, noonWall);
  const year = new Date(noonWall).getUTCFullYear();
  const standard = Math.min(
    offsetAt(zone, Date.UTC(year, 0, 15)),
    offsetAt(zone, Date.UTC(year, 6, 15)),
  );
  return offsetAt(zone, noon) > standard;
}

/** First instant in (lo, hi] whose offset differs from `offLo`; lo and hi are whole seconds. */
function transitionBetween(zone: string, lo: number, hi: number, offLo: number): number {
  let a = lo;
  let b = hi;
  while (b - a > 1000) {
    const mid = a + Math.floor((b - a) / 2000) * 1000;
    if (offsetAt(zone, mid) === offLo) a = mid;
    else b = mid;
  }
  return b;
}

/**
 * The UTC instants whose wall reading lies in [wallStart, wallEnd), as sorted disjoint intervals.
 * A DST transition inside the range yields two pieces (or a gap); offsets stay within
 * [-12 h, +14 h], and real zones never change offset twice within the ~2-day probe span.
 */
export function wallRangeToUtc(zone: string, wallStart: number, wallEnd: number): Interval[] {
  const lo = wallStart - 15 * HOUR;
  const hi = wallEnd + 13 * HOUR;
  const offLo = offsetAt(zone, lo);
  const offHi = offsetAt(zone, hi);
  const segments =
    offLo === offHi
      ? [{ from: lo, to: hi, offset: offLo }]
      : (() => {
          const t = transitionBetween(zone, lo, hi, offLo);
          return [
            { from: lo, to: t, offset: offLo },
            { from: t, to: hi, offset: offsetAt(zone, t) },
          ];
        })();
  const out: Interval[] = [];
  for (const seg of segments) {
    const start = Math.max(seg.from, wallStart - seg.offset);
    const end = Math.min(seg.to, wallEnd - seg.offset);
    if (start >= end) continue;
    const last = out[out.length - 1];
    if (last && last.end >= start) last.end = Math.max(last.end, end);
    else out.push({ start, end });
  }
  return out;
}
