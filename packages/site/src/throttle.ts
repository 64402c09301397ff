/**
 * The route's own per-client budget. Every request that reaches the service
 * spends one of the organization's DNI sessions per minute, so one address
 * (a script, a crawler, a misbehaving proxy) must not spend them all and
 * leave real visitors with the default number.
 *
 * A client address may make `requests` calls to the service per
 * `windowSeconds` window, and never more than `share` of the organization's
 * own limit, as the service reports it in its `RateLimit-Policy` header
 * (`"default";q=300;w=60`). Fixed windows, in memory: the kit runs in the
 * site's process and a site with several processes gives each its own
 * budget, which is still a bound.
 */
export interface ClientLimit {
  /** Calls to the service per window and address (default 20). */
  requests: number;
  /** The window (default 60 s). */
  windowSeconds: number;
  /** The most of the organization's limit one address may use in one window (default 0.1). */
  share: number;
}

export const DEFAULT_CLIENT_LIMIT: ClientLimit = { requests: 20, windowSeconds: 60, share: 0.1 };

/** More addresses than this in one window share one budget: the map stays bounded. */
const MAX_TRACKED = 50_000;
const OVERFLOW = '\u0000overflow';

export class ClientThrottle {
  private windowStart = Number.NEGATIVE_INFINITY;
  private counts = new Map<string, number>();
  /** The organization's quota per window, from the service's last RateLimit-Policy. */
  private orgQuota: { q: number; w: number } | null = null;

  constructor(
    private readonly limit: ClientLimit,
    private readonly now: () => number,
  ) {}

  /** The calls one address may make in the current window. */
  allowance(): number {
    let cap = this.limit.requests;
    if (this.orgQuota) {
      // The organization's quota scaled to this window, then its share.
      const perWindow = (this.orgQuota.q * this.limit.windowSeconds) / this.orgQuota.w;
      cap = Math.min(cap, Math.max(1, Math.floor(perWindow * this.limit.share)));
    }
    return cap;
  }

  /** Counts one call for `address`; false when its budget for this window is spent. */
  take(address: string | undefined): boolean {
    const t = this.now();
    const windowMs = this.limit.windowSeconds * 1000;
    if (t - this.windowStart >= windowMs || t < this.windowStart) {
      this.windowStart = t - (t % windowMs);
      this.counts.clear();
    }
    let key = address ?? '';
    if (!this.counts.has(key) && this.counts.size >= MAX_TRACKED) key = OVERFLOW;
    const used = this.counts.get(key) ?? 0;
    if (used >= this.allowance()) return false;
    this.counts.set(key, used + 1);
    return true;
  }

  /** Learns the organization's quota from an answer's `RateLimit-Policy` header. */
  observe(policy: string | null | undefined): void {
    if (!policy) return;
    const q = /;\s*q=(\d+)/.exec(policy);
    const w = /;\s*w=(\d+)/.exec(policy);
    if (!q || !w) return;
    const quota = { q: Number(q[1]), w: Number(w[1]) };
    if (quota.q > 0 && quota.w > 0) this.orgQuota = quota;
  }
}
