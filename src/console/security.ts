import fastifyCookie, { type CookieSerializeOptions } from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import fastifyFormbody from '@fastify/formbody';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ConsoleSettings } from '../config.js';

/**
 * The Content-Security-Policy of every answer: nothing from another origin
 * (the console serves its own assets), no inline script or style, no
 * framing, forms post only here.
 */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'"],
  connectSrc: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  baseUri: ["'none'"],
};

/** Cookie names: `__Host-` ties them to this origin, HTTPS and path / (only with Secure). */
export function cookieNames(s: ConsoleSettings) {
  const prefix = s.secureCookies ? '__Host-' : '';
  return { session: `${prefix}console_session`, csrf: `${prefix}console_csrf` };
}

/** Every console cookie: script cannot read it, other sites' navigations do not carry it on a post. */
export function cookieOptions(s: ConsoleSettings, maxAgeSeconds?: number): CookieSerializeOptions {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: s.secureCookies,
    ...(maxAgeSeconds !== undefined ? { maxAge: maxAgeSeconds } : {}),
  };
}

/** The token a form posts in `_csrf`, or a script sends in X-CSRF-Token. */
function postedToken(req: FastifyRequest): string | undefined {
  const body = req.body as Record<string, unknown> | null | undefined;
  const field = body && typeof body === 'object' && !Buffer.isBuffer(body) ? body._csrf : undefined;
  const given = Array.isArray(field) ? field[0] : field;
  if (typeof given === 'string') return given;
  const header = req.headers['x-csrf-token'];
  return typeof header === 'string' ? header : undefined;
}

/** The plugin's refusals (a wrong or missing token, no secret cookie), told apart from other errors. */
export function isCsrfRefusal(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'FST_CSRF_INVALID_TOKEN' || code === 'FST_CSRF_MISSING_SECRET';
}

/**
 * Cookies, form bodies, security headers and CSRF tokens. The CSRF secret
 * lives in its own HttpOnly cookie; every form carries a token made from it
 * (`reply.generateCsrf()`), and `app.csrfProtection` checks a post's token.
 * Signing in and out clears the secret, so a token never outlives the
 * session it was shown in.
 */
export async function registerSecurity(app: FastifyInstance, s: ConsoleSettings): Promise<void> {
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    // HSTS only where the console is served over HTTPS (the cookies are Secure there).
    strictTransportSecurity: s.secureCookies,
  });
  await app.register(fastifyCsrf, {
    cookieKey: cookieNames(s).csrf,
    cookieOpts: cookieOptions(s),
    getToken: postedToken,
  });
}
