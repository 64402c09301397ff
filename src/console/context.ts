import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ConsoleSettings } from '../config.js';
import type { AppDeps } from '../deps.js';
import type { Org } from '../domain/admin/ports.js';
import { type SessionPolicy, sessionPolicy, type Viewer } from '../domain/console/accounts.js';
import { errors } from '../errors.js';
import { contentTypeOf } from '../http/validate.js';
import type { DayRange } from './time.js';

export interface ConsoleDeps extends AppDeps {
  console: ConsoleSettings;
}

export const policyOf = (s: ConsoleSettings): SessionPolicy => sessionPolicy(s);

export type Role = 'operator' | 'manager' | 'viewer';

/** What every signed-in page is given. */
export interface PageContext {
  viewer: Viewer;
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

/** Cookie names: `__Host-` ties them to this origin, HTTPS and path / (only with Secure). */
export function cookieNames(s: ConsoleSettings) {
  const prefix = s.secureCookies ? '__Host-' : '';
  return { session: `${prefix}console_session`, preCsrf: `${prefix}console_csrf` };
}

export function readCookies(req: FastifyRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const name = part.slice(0, i).trim();
    const value = part.slice(i + 1).trim();
    if (!(name in out)) {
      try {
        out[name] = decodeURIComponent(value);
      } catch {
        // A cookie we did not set; ignore it.
      }
    }
  }
  return out;
}

export function setCookie(
  reply: FastifyReply,
  s: ConsoleSettings,
  name: string,
  value: string,
  maxAgeSeconds?: number,
): void {
  const attrs = [
    `${name}=${encodeURIComponent(value)}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    ...(s.secureCookies ? ['Secure'] : []),
    ...(maxAgeSeconds !== undefined ? [`Max-Age=${maxAgeSeconds}`] : []),
  ];
  const prior = reply.getHeader('set-cookie');
  const list = Array.isArray(prior) ? prior : prior ? [String(prior)] : [];
  reply.header('set-cookie', [...list, attrs.join('; ')]);
}

export const newToken = () => randomBytes(24).toString('base64url');

export function sameToken(a: string | undefined, b: string): boolean {
  const x = Buffer.from(a ?? '');
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A posted form (application/x-www-form-urlencoded); anything else is an empty form. */
export function formOf(req: FastifyRequest): URLSearchParams {
  const type = String(contentTypeOf(req) ?? '');
  if (!Buffer.isBuffer(req.body) || !type.startsWith('application/x-www-form-urlencoded'))
    return new URLSearchParams();
  return new URLSearchParams(req.body.toString('utf8'));
}

/** Every state-changing request carries the session's token in `_csrf` (or X-CSRF-Token). */
export function checkCsrf(req: FastifyRequest, form: URLSearchParams, expected: string): void {
  const given = form.get('_csrf') ?? (req.headers['x-csrf-token'] as string | undefined);
  if (!sameToken(given ?? undefined, expected)) throw errors.invalidCsrfToken();
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
