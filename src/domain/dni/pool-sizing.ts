import { RECENT_HOLDER_GRACE_MS } from './attribution.js';

/**
 * The sizing model of docs/pool-sizing.md: how accurate attribution is with
 * `size` pool numbers, given a campaign's traffic hour by hour.
 */
export interface TrafficProfile {
  /** New sessions (visitors given a number) in each hour; empty or all zero: no traffic. */
  hourlyArrivals: number[];
  /** Mean seconds a session holds its number: the visit plus the sliding lifetime after it. */
  meanHoldSeconds: number;
  /** Shares of calls (sum 1): while the caller's session is live, in the grace window after it, later. */
  callMix: { live: number; grace: number; late: number };
  /** Seconds after the holder's expiry of calls made in the grace window (any order). */
  graceLateness: number[];
  /** Mean seconds from a session's creation to the calls made while it was live. */
  liveCallDelaySeconds: number;
}

const GRACE_S = RECENT_HOLDER_GRACE_MS / 1000;

/** Erlang B blocking for 0..max servers at offered load a (the stable recursion). */
export function erlangB(traffic: number, max: number): Float64Array {
  const b = new Float64Array(max + 1);
  b[0] = 1;
  for (let n = 1; n <= max; n++) b[n] = (traffic * b[n - 1]!) / (n + traffic * b[n - 1]!);
  return b;
}

/** Share of values strictly above x, values sorted ascending. */
function shareAbove(sorted: readonly number[], x: number): number {
  if (sorted.length === 0) return 0;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return (sorted.length - lo) / sorted.length;
}

/**
 * Predicted share of calls attributed right, for each pool size 1..maxSize,
 * averaged over the hours weighted by their arrivals (calls follow visitors).
 * In an hour with arrival rate λ and offered load A = λ·hold:
 * - a live-session call is wrong when a newcomer was given its number between
 *   the session's start and the call: the pool is full (Erlang B) and the
 *   newcomers who share, λ of them an hour spread over the n numbers, reach
 *   this one within the call's delay d: λ·d/n;
 * - a grace call is wrong when the number was handed out again before it:
 *   least-recently-released order queues free numbers, so a released number
 *   waits (size − A)/λ before its next holder;
 * - a later call is wrong when it lands on a number then held, or in a newer
 *   holder's grace window: (hold + min(grace, wait)) / (hold + wait) of the time.
 */
export function predictAccuracy(profile: TrafficProfile, maxSize: number): Float64Array {
  const acc = new Float64Array(maxSize + 1);
  const e = predictErrors(profile, maxSize);
  if (e.total <= 0) return acc.fill(1);
  for (let n = 1; n <= maxSize; n++) acc[n] = 1 - e.wrong[n]!;
  return acc;
}

/**
 * The errors behind predictAccuracy, each term as a share of all calls, for
 * pool sizes 0..maxSize: `wrong` is their sum capped at 1 per hour.
 */
export function predictErrors(profile: TrafficProfile, maxSize: number) {
  const live = new Float64Array(maxSize + 1);
  const grace = new Float64Array(maxSize + 1);
  const late = new Float64Array(maxSize + 1);
  const wrong = new Float64Array(maxSize + 1).fill(1);
  const total = profile.hourlyArrivals.reduce((s, x) => s + x, 0);
  if (total <= 0) return { total, live, grace, late, wrong };
  wrong.fill(0);
  wrong[0] = 1;
  const lateness = [...profile.graceLateness].sort((x, y) => x - y);
  const hold = profile.meanHoldSeconds;
  // Hours with the same arrivals give the same errors: compute each once.
  const counts = new Map<number, number>();
  for (const x of profile.hourlyArrivals) if (x > 0) counts.set(x, (counts.get(x) ?? 0) + 1);
  for (const [arrivals, hours] of counts) {
    const lambda = arrivals / 3600;
    const load = lambda * hold;
    const blocking = erlangB(load, maxSize);
    const weight = (arrivals * hours) / total;
    for (let n = 1; n <= maxSize; n++) {
      const wait = n > load ? (n - load) / lambda : 0;
      const wrongGrace = wait > 0 ? shareAbove(lateness, wait) : 1;
      const wrongLate = Math.min(1, (hold + Math.min(GRACE_S, wait)) / (hold + wait));
      const l =
        profile.callMix.live *
        blocking[n]! *
        Math.min(1, (lambda * profile.liveCallDelaySeconds) / n);
      const g = profile.callMix.grace * wrongGrace;
      const t = profile.callMix.late * wrongLate;
      live[n]! += weight * l;
      grace[n]! += weight * g;
      late[n]! += weight * t;
      wrong[n]! += weight * Math.min(1, l + g + t);
    }
  }
  return { total, live, grace, late, wrong };
}

export interface Recommendation {
  /** Smallest pool predicted to reach the target; null when no size up to the cap does. */
  size: number | null;
  predictedAccuracy: number | null;
  /** The best the model expects from any pool up to the cap (late calls limit it). */
  ceiling: number;
}

/** Pools larger than this are not advised; the ceiling then says why. */
export const MAX_RECOMMENDED = 20_000;

export function recommendSize(
  profile: TrafficProfile,
  target: number,
  maxSize = MAX_RECOMMENDED,
): Recommendation {
  // Search a cap that fits the traffic: ten times the busiest hour's load is plenty.
  const peak = Math.max(0, ...profile.hourlyArrivals);
  const cap = Math.min(
    maxSize,
    Math.max(50, Math.ceil((10 * peak * profile.meanHoldSeconds) / 3600)),
  );
  const acc = predictAccuracy(profile, cap);
  let ceiling = 0;
  for (let n = 1; n <= cap; n++) {
    ceiling = Math.max(ceiling, acc[n]!);
    if (acc[n]! >= target) return { size: n, predictedAccuracy: acc[n]!, ceiling: acc[n]! };
  }
  return { size: null, predictedAccuracy: null, ceiling };
}

export interface RuleOfThumb {
  source: string;
  rule: string;
  size: number;
}

/** The vendors' rules of thumb on the same traffic, for comparison (docs/pool-sizing.md). */
export function rulesOfThumb(traffic: {
  busiestDayArrivals: number;
  busiestHourArrivals: number;
  meanHoldSeconds: number;
}): RuleOfThumb[] {
  const holdMin = traffic.meanHoldSeconds / 60;
  // Without a pool limit, concurrent sessions at the busy hour are its offered load.
  const peakConcurrent = (traffic.busiestHourArrivals * holdMin) / 60;
  const up = (x: number) => Math.max(1, Math.ceil(x));
  return [
    {
      source: 'CallTrackingMetrics',
      rule: '1 number per 20 daily visitors',
      size: up(traffic.busiestDayArrivals / 20),
    },
    {
      source: 'Nimbata',
      rule: 'peak visitors per hour ÷ (60 ÷ average session minutes)',
      size: up(traffic.busiestHourArrivals / (60 / holdMin)),
    },
    {
      source: 'Call Dynamics',
      rule: 'add numbers above 75% utilisation at peak',
      size: up(peakConcurrent / 0.75),
    },
    { source: 'CallMatrix', rule: 'peak concurrent visitors ÷ 4', size: up(peakConcurrent / 4) },
  ];
}
