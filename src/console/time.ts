import { isoDateOfDay, localDayAt, offsetAt } from '../domain/compliance/tz.js';
import { type Html, html } from './html.js';

/**
 * Days in an organization's time zone: the console's date range is a span of
 * whole local days, turned into UTC instants here (the zone arithmetic is the
 * compliance gate's, src/domain/compliance/tz.ts).
 */

/** The instant a local calendar day (YYYY-MM-DD) starts in `zone`. */
export function startOfDay(day: string, zone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d);
  let ms = guess - offsetAt(zone, guess);
  // Once more: the offset at the guess may differ from the offset at the answer (DST).
  ms = guess - offsetAt(zone, ms);
  return new Date(ms);
}

/** The local calendar day (YYYY-MM-DD) of an instant in `zone`. */
export function dayOf(at: Date, zone: string): string {
  return isoDateOfDay(localDayAt(zone, at.getTime()));
}

export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

export const DAY_SHAPE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export interface DayRange {
  /** First local day, inclusive. */
  from: string;
  /** Last local day, inclusive. */
  to: string;
  zone: string;
  since: Date;
  until: Date;
  days: number;
  /** What the page shows instead of what was asked, when it differs (a date refused, a range cut). */
  notice: string | null;
}

/** The longest range a page shows, and the first day it shows. */
export const MAX_RANGE_DAYS = 400;
export const FIRST_DAY = '2000-01-01';

/** A real calendar day (2026-02-31 is not) within the days the console shows. */
function shownDay(day: string | undefined, last: string): boolean | undefined {
  if (day === undefined || day === '') return undefined;
  return DAY_SHAPE.test(day) && addDays(day, 0) === day && day >= FIRST_DAY && day <= last;
}

/**
 * The range a page shows: `from`..`to` as typed (inclusive local days), else
 * the last 7 days; never backwards, at most MAX_RANGE_DAYS, between
 * FIRST_DAY and a year from today. A date outside that, or a range cut to
 * fit, is said in `notice`.
 */
export function dayRange(q: { from?: string; to?: string }, zone: string, now: Date): DayRange {
  const today = dayOf(now, zone);
  const last = addDays(today, 366);
  const notes: string[] = [];
  const typed = (name: 'from' | 'to') => {
    const value = q[name];
    const ok = shownDay(value, last);
    if (ok === false) {
      notes.push(
        `${name === 'from' ? 'From' : 'To'} ${JSON.stringify(value!.slice(0, 40))} is not a date this console shows (${FIRST_DAY} to ${last}).`,
      );
    }
    return ok ? value : undefined;
  };
  const asked = { from: typed('from'), to: typed('to') };
  let to = asked.to ?? today;
  let from = asked.from ?? addDays(to, -6);
  if (from > to) [from, to] = [to, from];
  if (from < addDays(to, -(MAX_RANGE_DAYS - 1))) {
    from = addDays(to, -(MAX_RANGE_DAYS - 1));
    notes.push(`A range shows at most ${MAX_RANGE_DAYS} days: ${from} to ${to}.`);
  } else if (notes.length > 0) notes.push(`Showing ${from} to ${to}.`);
  const since = startOfDay(from, zone);
  const until = startOfDay(addDays(to, 1), zone);
  const days = Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000) + 1;
  return { from, to, zone, since, until, days, notice: notes.length > 0 ? notes.join(' ') : null };
}

/** The range of the same length just before `r`, for "change against the previous period". */
export function previousRange(r: DayRange): DayRange {
  const to = addDays(r.from, -1);
  const from = addDays(to, -(r.days - 1));
  return { ...r, from, to, since: startOfDay(from, r.zone), until: r.since };
}

/** The zone as a reader sees it next to a time: its short name (EST, GMT+1) where it has one. */
export function zoneName(at: Date, zone: string): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'short' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? zone;
}

/** A timestamp as the reader sees it: local date and time in `zone`, with the zone's short name. */
export function localTime(at: Date | null | undefined, zone: string): string {
  if (!at) return '';
  const local = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    dateStyle: 'short',
    timeStyle: 'short',
    hourCycle: 'h23',
  }).format(at);
  return `${local} ${zoneName(at, zone)}`;
}

/**
 * An instant as ISO 8601 in `zone`, with its offset (2026-11-27T23:07:00-05:00):
 * what a CSV cell holds, so a spreadsheet shows the same wall time as the page
 * and a program still reads the instant.
 */
export function isoInZone(at: Date | null | undefined, zone: string): string {
  if (!at) return '';
  const offsetMin = Math.round(offsetAt(zone, at.getTime()) / 60_000);
  const local = new Date(at.getTime() + offsetMin * 60_000).toISOString().slice(0, 19);
  if (offsetMin === 0) return `${local}Z`;
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** A time in a table cell: kept on one line, with its instant for machines. */
export function timeCell(at: Date | null | undefined, zone: string): Html {
  if (!at) return html``;
  return html`<time datetime="${at.toISOString()}">${localTime(at, zone)}</time>`;
}

/** A local day (YYYY-MM-DD) in a table cell: on one line (a narrow column broke it at a hyphen). */
export function dayCell(day: string | null | undefined): Html {
  if (!day) return html``;
  return html`<time datetime="${day}">${day}</time>`;
}
