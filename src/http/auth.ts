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
import { errors } from '../errors.js';
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
): onRequestHookHandler {
  // A callback hook, not an async one: authentication is synchronous, and on
  // the DNI path every promise per request shows in the profile.
  return (request, _reply, done) => {
    try {
      request.principal = keyring.authenticate(request.headers.authorization, scope, now());
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  };
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
