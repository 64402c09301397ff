import { trafficProfile } from './pool-health.js';
import { recommendSize } from './pool-sizing.js';
import type { PoolSizingRepos } from './ports.js';

/** A campaign's pool numbers and how many a live session holds now: read on a metrics scrape. */
export interface PoolUsage {
  campaignId: string;
  orgId: string;
  code: string;
  total: number;
  held: number;
}

export interface PoolSizingGauge {
  campaignId: string;
  orgId: string;
  code: string;
  /** Most pool numbers held at once over the last 24 hours. */
  peakHeld: number;
  /** Recommended pool size for 99 % over 30 days; null without traffic or when out of reach. */
  recommended: number | null;
}

const DAY_MS = 86_400_000;
export const GAUGE_WINDOW_DAYS = 30;
export const GAUGE_TARGET = 0.99;

/**
 * Peak and recommended size per campaign for the metrics scrape. Each reads
 * a campaign's 30 days of sessions, too much for every scrape: the answer is
 * kept for `refreshMs` of the service clock.
 */
export function cachedPoolSizing(
  repos: PoolSizingRepos,
  now: () => number,
  refreshMs = 5 * 60_000,
): () => Promise<PoolSizingGauge[]> {
  let last: { at: number; rows: Promise<PoolSizingGauge[]> } | null = null;
  return () => {
    const t = now();
    if (!last || t - last.at >= refreshMs || t < last.at) {
      const rows = compute(repos, new Date(t));
      // A failed read is not kept: the next scrape tries again.
      rows.catch(() => {
        if (last?.rows === rows) last = null;
      });
      last = { at: t, rows };
    }
    return last.rows;
  };
}

async function compute(repos: PoolSizingRepos, now: Date): Promise<PoolSizingGauge[]> {
  const campaigns = await repos.poolSizing.campaignsWithPool(repos.db);
  const out: PoolSizingGauge[] = [];
  for (const c of campaigns) {
    const since = new Date(now.getTime() - GAUGE_WINDOW_DAYS * DAY_MS);
    const o = await repos.poolSizing.observePool(repos.db, c.id, since, now);
    const arrivals = o.hours.reduce((s, h) => s + h.arrivals, 0);
    const rec = arrivals > 0 ? recommendSize(trafficProfile(o).profile, GAUGE_TARGET) : null;
    out.push({
      campaignId: c.id,
      orgId: c.org_id,
      code: c.code,
      peakHeld: Math.max(0, ...o.hours.slice(-25).map((h) => h.peakHeld)),
      recommended: rec?.size ?? null,
    });
  }
  return out;
}
