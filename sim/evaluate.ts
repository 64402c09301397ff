import type { Store } from '../src/store/db.js';
import { type RunResult, replay } from './replay.js';
import { generateTrace, type TrafficShape } from './traffic.js';

/** Offered load at the busy hour, in erlangs: the pool a loss system would need before any margin. */
export function busyHourLoad(s: TrafficShape): number {
  return (s.peakPerHour * (s.visitMeanMin * 60 + s.ttlSeconds)) / 3600;
}

export interface Advice {
  shape: TrafficShape;
  /** The run the advice was read from: an ample pool, as a campaign that is not starved would have. */
  reference: RunResult;
  recommended: number | null;
  atRecommended: RunResult | null;
  /** The largest size below recommended ÷ 1.15, and its run: it must miss the target. */
  below: RunResult | null;
  runs: RunResult[];
}

/**
 * Reads the recommendation from a run on an ample pool (the pool endpoint's
 * own answer), then checks it: the recommended size must reach the target and
 * a pool 15 % smaller must not (so the smallest sufficient pool is within 15 %).
 */
export async function checkAdvice(
  store: Store,
  shape: TrafficShape,
  target: number,
): Promise<Advice> {
  const trace = generateTrace(shape);
  const runs: RunResult[] = [];
  const run = async (size: number) => {
    const r = await replay(store, shape, trace, size, target);
    runs.push(r);
    return r;
  };
  const reference = await run(Math.ceil(busyHourLoad(shape) * 4) + 5);
  const recommended = reference.health.recommendation.size;
  if (recommended === null)
    return { shape, reference, recommended, atRecommended: null, below: null, runs };
  const atRecommended = await run(recommended);
  const belowSize = Math.ceil(recommended / 1.15) - 1;
  const below = belowSize >= 1 ? await run(belowSize) : null;
  return { shape, reference, recommended, atRecommended, below, runs };
}

/** The smallest size in [lo, hi] reaching the target, by bisection (accuracy grows with the pool). */
export async function smallestSufficient(
  store: Store,
  shape: TrafficShape,
  target: number,
  lo: number,
  hi: number,
  runs: RunResult[] = [],
): Promise<number> {
  const trace = generateTrace(shape);
  while (hi - lo > Math.max(1, Math.floor(hi * 0.01))) {
    const mid = Math.floor((lo + hi) / 2);
    const r = await replay(store, shape, trace, mid, target);
    runs.push(r);
    if (r.accuracy >= target) hi = mid;
    else lo = mid;
  }
  return hi;
}
