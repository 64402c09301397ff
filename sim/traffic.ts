/**
 * Synthetic DNI traffic: who visits when, for how long, who calls and when.
 * Everything is drawn from one seed, so a trace can be replayed on several
 * pool sizes (common random numbers: differences come from the pool only).
 */
export interface TrafficShape {
  name: string;
  /** New visitors per hour at the busiest hour of the daily curve. */
  peakPerHour: number;
  /** Simulated hours of arrivals (calls may come after). */
  hours: number;
  /** Relative arrival rate per hour of day, 24 values, the largest is the peak. */
  dailyCurve: readonly number[];
  /** Mean visit length in minutes (exponential). */
  visitMeanMin: number;
  /** Share of visitors who come back later (a new visit, 1 to 6 hours after). */
  returnShare: number;
  /** Share of visitors who call the number they were shown. */
  callShare: number;
  /** Of callers: share who call during the visit; the rest call after leaving. */
  callDuringVisit: number;
  /** Mean minutes after leaving of the calls made after the visit (exponential). */
  callAfterMeanMin: number;
  /** Of callers: share who call much later, 2 to 12 hours after leaving, instead. */
  lateCallShare: number;
  /** Of callers: share who call again, 1 to 8 hours later, from the same phone. */
  repeatCallShare: number;
  /** The campaign's session lifetime (sliding), seconds. */
  ttlSeconds: number;
  seed: number;
}

/** Quiet at night, a morning ramp, a plateau over the working day, an evening tail. */
export const OFFICE_CURVE = [
  0.08, 0.05, 0.04, 0.04, 0.05, 0.1, 0.2, 0.4, 0.65, 0.85, 0.95, 1, 0.95, 0.9, 0.95, 1, 0.95, 0.85,
  0.7, 0.55, 0.45, 0.35, 0.25, 0.15,
] as const;

export const DEFAULT_SHAPE: TrafficShape = {
  name: 'default',
  peakPerHour: 10_000,
  hours: 24,
  dailyCurve: OFFICE_CURVE,
  visitMeanMin: 4,
  returnShare: 0.1,
  callShare: 0.05,
  callDuringVisit: 0.7,
  callAfterMeanMin: 12,
  lateCallShare: 0.01,
  repeatCallShare: 0.1,
  ttlSeconds: 1800,
  seed: 1,
};

export type SimEvent =
  | { t: number; kind: 'hit'; visitor: number }
  | { t: number; kind: 'call'; visitor: number };

/** mulberry32: small, fast, good enough for a simulation, and seedable. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MIN = 60_000;
const HOUR = 3_600_000;

/** Events in time order (ms from the start), with the number of visitors. */
export function generateTrace(s: TrafficShape): { events: SimEvent[]; visitors: number } {
  const r = rng(s.seed);
  const exp = (mean: number) => -Math.log(1 - r()) * mean;
  const uniform = (lo: number, hi: number) => lo + r() * (hi - lo);
  const peak = Math.max(...s.dailyCurve);
  const events: SimEvent[] = [];
  // Page views keep the session alive: one at least this often while on the site.
  const hitEvery = Math.min(s.ttlSeconds * 1000 - MIN, 10 * MIN);
  const visit = (visitor: number, start: number) => {
    const length = exp(s.visitMeanMin * MIN);
    events.push({ t: start, kind: 'hit', visitor });
    for (let t = start + hitEvery; t < start + length; t += hitEvery) {
      events.push({ t, kind: 'hit', visitor });
    }
    if (length > 1000) events.push({ t: start + length, kind: 'hit', visitor });
    return start + length;
  };
  let visitors = 0;
  // A non-homogeneous Poisson process by thinning a peak-rate one.
  const rate = s.peakPerHour / HOUR;
  for (let t = exp(1 / rate); t < s.hours * HOUR; t += exp(1 / rate)) {
    const hourOfDay = Math.floor(t / HOUR) % 24;
    if (r() * peak > s.dailyCurve[hourOfDay]!) continue;
    const v = visitors++;
    let start = t;
    let end = visit(v, t);
    if (r() < s.returnShare) {
      start = end + uniform(1, 6) * HOUR;
      end = visit(v, start);
    }
    if (r() >= s.callShare) continue;
    let call: number;
    const when = r();
    if (when < s.lateCallShare) call = end + uniform(2, 12) * HOUR;
    else if (when < s.lateCallShare + (1 - s.lateCallShare) * s.callDuringVisit) {
      // During the last visit.
      call = uniform(start, end);
    } else call = end + exp(s.callAfterMeanMin * MIN);
    events.push({ t: call, kind: 'call', visitor: v });
    if (r() < s.repeatCallShare) {
      events.push({ t: call + uniform(1, 8) * HOUR, kind: 'call', visitor: v });
    }
  }
  events.sort((a, b) => a.t - b.t || (a.kind === b.kind ? 0 : a.kind === 'hit' ? -1 : 1));
  return { events, visitors };
}
