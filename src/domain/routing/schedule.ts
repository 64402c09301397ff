import { wallAt } from '../compliance/tz.js';
import type { Schedule, Span } from './types.js';
import { WEEKDAYS, type Weekday } from './vocabulary.js';

const MINUTES_PER_DAY = 24 * 60;

/** "HH:MM" (00:00–23:59, or 24:00) as minutes after midnight; NaN when it is not one. */
export function minutesOf(hhmm: string): number {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!m) return Number.NaN;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (min > 59 || h > 24 || (h === 24 && min !== 0)) return Number.NaN;
  return h * 60 + min;
}

/** Why a schedule is not one (a span whose end is not after its start), by place; empty: fine. */
export function scheduleProblems(s: Schedule): { loc: (string | number)[]; msg: string }[] {
  const out: { loc: (string | number)[]; msg: string }[] = [];
  for (const day of WEEKDAYS) {
    (s[day] ?? []).forEach((span: Span, i) => {
      const [start, end] = span.map(minutesOf) as [number, number];
      if (Number.isNaN(start) || start === MINUTES_PER_DAY) {
        out.push({ loc: [day, i, 0], msg: 'must be a time from 00:00 to 23:59' });
      } else if (Number.isNaN(end)) {
        out.push({ loc: [day, i, 1], msg: 'must be a time from 00:01 to 24:00' });
      } else if (end <= start) {
        out.push({ loc: [day, i], msg: 'must end after it starts' });
      }
    });
  }
  return out;
}

/** The weekday and minute of the day on the wall clock of `zone` at `ms`. */
export function wallClock(zone: string, ms: number): { day: Weekday; minute: number } {
  const date = new Date(wallAt(zone, ms));
  // getUTCDay: 0 is Sunday; WEEKDAYS starts on Monday.
  const day = WEEKDAYS[(date.getUTCDay() + 6) % 7] as Weekday;
  return { day, minute: date.getUTCHours() * 60 + date.getUTCMinutes() };
}

/** Whether a buyer with this schedule takes calls at `ms` (null: always open). */
export function isOpen(schedule: Schedule | null, zone: string, ms: number): boolean {
  if (schedule === null) return true;
  const { day, minute } = wallClock(zone, ms);
  return (schedule[day] ?? []).some(([start, end]) => {
    return minute >= minutesOf(start) && minute < minutesOf(end);
  });
}
