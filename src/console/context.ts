import type { FastifyRequest } from 'fastify';
import type { ConsoleSettings } from '../config.js';
import type { AppDeps } from '../deps.js';
import type { Org } from '../domain/admin/ports.js';
import { type SessionPolicy, sessionPolicy, type Viewer } from '../domain/console/accounts.js';
import { errors } from '../errors.js';
import type { DayRange } from './time.js';

export interface ConsoleDeps extends AppDeps {
  console: ConsoleSettings;
}

export const policyOf = (s: ConsoleSettings): SessionPolicy => sessionPolicy(s);

export type Role = 'operator' | 'manager' | 'viewer';

/** What every signed-in page is given. */
export interface PageContext {
  viewer: Viewer;
  /** The CSRF token every form of the page posts in `_csrf`. */
  csrf: string;
  now: Date;
  /** The reader's locale (Accept-Language), for numbers. */
  locale: string;
  num: (n: number | null | undefined, digits?: number) => string;
  pct: (n: number | null | undefined) => string;
  /** Every organization the person may open, for the switcher. */
  orgs: { id: string; name: string }[];
}

export interface OrgContext extends PageContext {
  org: Org;
  role: Role;
  zone: string;
  range: DayRange;
}

/** The page's date range and zone, as a report query takes them. */
export const reportRange = (ctx: OrgContext) => ({
  from: ctx.range.since,
  to: ctx.range.until,
  timeZone: ctx.zone,
});

/**
 * A posted form (application/x-www-form-urlencoded, parsed by @fastify/formbody)
 * as URLSearchParams; anything else is an empty form.
 */
export function formOf(req: FastifyRequest): URLSearchParams {
  const form = new URLSearchParams();
  const body = req.body;
  if (!body || typeof body !== 'object' || Buffer.isBuffer(body)) return form;
  for (const [name, value] of Object.entries(body)) {
    for (const v of Array.isArray(value) ? value : [value])
      if (typeof v === 'string') form.append(name, v);
  }
  return form;
}

/** The first locale of Accept-Language this runtime knows, else en-US. */
export function localeOf(req: FastifyRequest): string {
  const header = String(req.headers['accept-language'] ?? '');
  for (const part of header.split(',')) {
    const tag = part.split(';')[0]!.trim();
    if (!tag || tag === '*' || tag.length > 35) continue;
    try {
      const [found] = Intl.NumberFormat.supportedLocalesOf([tag]);
      if (found) return found;
    } catch {
      // Not a language tag.
    }
  }
  return 'en-US';
}

export function numberFormats(locale: string) {
  const whole = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  return {
    num: (n: number | null | undefined, digits = 0) =>
      n === null || n === undefined || !Number.isFinite(n)
        ? '–'
        : digits === 0
          ? whole.format(n)
          : new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(n),
    pct: (n: number | null | undefined) =>
      n === null || n === undefined || !Number.isFinite(n) ? '–' : percent.format(n),
  };
}

export function requireManager(ctx: OrgContext): void {
  if (ctx.role === 'viewer') throw errors.forbidden();
}

export function requireOperator(ctx: PageContext): void {
  if (!ctx.viewer.user.operator) throw errors.routeNotFound();
}
