import type { RateDecision } from '../domain/rate-limit/limiter.js';

/**
 * The IETF RateLimit header fields, draft-ietf-httpapi-ratelimit-headers-11
 * (§3 RateLimit-Policy, §4 RateLimit): Structured Field Lists whose items are
 * a policy name (an sf-string) with integer parameters. One policy, named
 * "default": `q` the quota and `w` the window in seconds; `r` what is left
 * of the quota and `t` the seconds until the window resets, the same number
 * a 429 sends as Retry-After.
 */
export const RATE_LIMIT_POLICY_NAME = 'default';

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const name = `"${RATE_LIMIT_POLICY_NAME}"`;
  return {
    'ratelimit-policy': `${name};q=${decision.limit};w=${decision.windowSeconds}`,
    ratelimit: `${name};r=${decision.remaining};t=${decision.retryAfterSeconds}`,
  };
}
