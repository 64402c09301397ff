import type {
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  onRequestHookHandler,
} from 'fastify';
import type { Metrics } from '../deps.js';
import type { Keyring, Principal } from '../domain/auth/keyring.js';
import type { Scope } from '../domain/auth/keys.js';
import type { RateLimiter } from '../domain/rate-limit/limiter.js';
import { type AppError, errors } from '../errors.js';
import { rateLimitHeaders } from './rate-limit-headers.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error('route has no authentication hook');
  return request.principal;
}

/** 401, then 403 tracking_disabled, then 403 insufficient_scope: before the body is read. */
export function requireScope(
  keyring: Keyring,
  scope: Scope,
  now: () => number,
  /** The route takes keys bound to a buyer (buyer reports): docs/routing.md. */
  buyerKeys = false,
): onRequestHookHandler {
  // A callback hook, not an async one: authentication is synchronous, and on
  // the DNI path every promise per request shows in the profile.
  return (request, _reply, done) => {
    const header = credentialOf(request);
    if (header === null) {
      done(errors.invalidApiKey());
      return;
    }
    try {
      request.principal = keyring.authenticate(header, scope, now(), buyerKeys);
    } catch (err) {
      if ((err as AppError).code !== 'invalid_api_key') {
        done(err as Error);
        return;
      }
      // Maybe a key created on another process since the last refresh: the store is asked.
      keyring.authenticateWithLookup(header, scope, now(), buyerKeys).then((p) => {
        request.principal = p;
        done();
      }, done);
      return;
    }
    done();
  };
}

/**
 * The request's one Authorization header (undefined when it has none), or
 * null when it has several: Node keeps the first of two, a proxy in front
 * may read the last, so a request that could mean two credentials has none.
 * Every listener (public API, admin API, /metrics) reads credentials here.
 */
export function credentialOf(request: FastifyRequest): string | undefined | null {
  return authorizationHeaders(request.raw.rawHeaders) > 1 ? null : request.headers.authorization;
}

function authorizationHeaders(raw: string[]): number {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization') n++;
  }
  return n;
}

export const DEFAULT_DNI_RATE_LIMIT = 300;

/**
 * Per-organization fixed window; counted after authentication, before
 * validation. The RateLimit headers go on the reply here, so every answer
 * after this point (201, 422, 404, 429…) carries the budget it was counted in.
 */
export function dniRateLimit(
  limiter: RateLimiter,
  now: () => number,
  metrics: Metrics,
): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const p = principalOf(request);
    const limit = p.org.dniRateLimitPerMinute ?? DEFAULT_DNI_RATE_LIMIT;
    const d = await limiter.hit(`dni:${p.orgId}`, limit, now());
    reply.headers(rateLimitHeaders(d));
    if (!d.allowed) {
      metrics.rateLimited.inc({ route: 'POST /dni/session' });
      throw errors.rateLimited(d.retryAfterSeconds);
    }
  };
}
