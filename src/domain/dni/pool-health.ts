import {
  predictAccuracy,
  recommendSize,
  rulesOfThumb,
  type TrafficProfile,
} from './pool-sizing.js';
import type { PoolObservation } from './ports.js';

/** Below this many calls the campaign's own call mix is too noisy to use: the defaults stand in. */
export const MIN_CALLS_FOR_MIX = 30;

/**
 * Call timing assumed until a campaign has calls of its own: most calls while
 * the visitor is on the page or soon after, a few in the grace window, spread
 * evenly over it, and a few much later.
 */
export const ASSUMED_CALL_MIX = { live: 0.93, grace: 0.05, late: 0.02 } as const;
const ASSUMED_GRACE_LATENESS = Array.from({ length: 30 }, (_, i) => i * 60 + 30);

export interface PoolHealthOptions {
  days: number;
  target: number;
  since: Date;
  now: Date;
}

/** The profile the sizing model reads, from a campaign's observed rows. */
export function trafficProfile(observation: PoolObservation): {
  profile: TrafficProfile;
  callMixSource: 'observed' | 'assumed';
} {
  const c = observation.calls;
  const observed = c.total >= MIN_CALLS_FOR_MIX;
  const late = c.repeatCaller + c.campaignOnly;
  return {
    profile: {
      hourlyArrivals: observation.hours.map((h) => h.arrivals),
      meanHoldSeconds: observation.meanHoldSeconds ?? 0,
      callMix: observed
        ? { live: c.holder / c.total, grace: c.grace / c.total, late: late / c.total }
        : { ...ASSUMED_CALL_MIX },
      graceLateness:
        observed && observation.graceLateness.length > 0
          ? observation.graceLateness
          : ASSUMED_GRACE_LATENESS,
      // Assumed: live calls anywhere in the hold, on average half-way through it.
      liveCallDelaySeconds:
        observed && observation.liveCallDelaySeconds !== null
          ? observation.liveCallDelaySeconds
          : (observation.meanHoldSeconds ?? 0) / 2,
    },
    callMixSource: observed ? 'observed' : 'assumed',
  };
}

function busiestDay(hours: PoolObservation['hours']): number {
  const days = new Map<string, number>();
  for (const h of hours) {
    const d = h.hour.toISOString().slice(0, 10);
    days.set(d, (days.get(d) ?? 0) + h.arrivals);
  }
  return Math.max(0, ...days.values());
}

const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The admin API's pool answer (GET /admin/orgs/{org_id}/campaigns/{code}/pool). */
export function poolHealthView(code: string, o: PoolObservation, opt: PoolHealthOptions) {
  const arrivals = o.hours.reduce((s, h) => s + h.arrivals, 0);
  const busiestHour = Math.max(0, ...o.hours.map((h) => h.arrivals));
  const hasTraffic = arrivals > 0 && o.meanHoldSeconds !== null;
  const { profile, callMixSource } = trafficProfile(o);
  const rules = rulesOfThumb({
    busiestDayArrivals: busiestDay(o.hours),
    busiestHourArrivals: busiestHour,
    meanHoldSeconds: o.meanHoldSeconds ?? 0,
  });
  const rec = hasTraffic ? recommendSize(profile, opt.target) : null;
  const current =
    hasTraffic && o.numbers > 0 ? predictAccuracy(profile, o.numbers)[o.numbers]! : null;
  const load = (busiestHour * (o.meanHoldSeconds ?? 0)) / 3600;
  return {
    campaign_code: code,
    window: {
      days: opt.days,
      since: opt.since.toISOString(),
      until: opt.now.toISOString(),
    },
    numbers: o.numbers,
    has_overflow_number: o.hasOverflow,
    held_now: o.heldNow,
    peak_held: Math.max(0, ...o.hours.map((h) => h.peakHeld)),
    hourly: o.hours.map((h) => ({
      hour: h.hour.toISOString(),
      new_sessions: h.arrivals,
      peak_held: h.peakHeld,
    })),
    sessions: o.sessions,
    calls: {
      total: o.calls.total,
      by_rule: {
        holder: o.calls.holder,
        grace: o.calls.grace,
        repeat_caller: o.calls.repeatCaller,
        campaign_only: o.calls.campaignOnly,
      },
      on_shared_number: o.calls.onSharedNumber,
    },
    accuracy: {
      estimated: current === null ? null : round(current),
      method: hasTraffic
        ? `sizing model (docs/pool-sizing.md) at the current ${o.numbers} numbers over this window's hourly new sessions, ` +
          `mean hold ${Math.round(o.meanHoldSeconds ?? 0)} s and the ${callMixSource} call timing`
        : 'no traffic in the window: nothing to estimate',
      call_mix_source: callMixSource,
    },
    recommendation: {
      target: opt.target,
      size: rec?.size ?? null,
      predicted_accuracy: rec?.predictedAccuracy == null ? null : round(rec.predictedAccuracy),
      ceiling: rec ? round(rec.ceiling) : null,
      basis: !hasTraffic ? 'no_traffic' : rec?.size == null ? 'target_unreachable' : 'model',
      busiest_hour_new_sessions: busiestHour,
      mean_hold_seconds: o.meanHoldSeconds === null ? null : Math.round(o.meanHoldSeconds),
      busy_hour_load_erlangs: round(load, 2),
      note: !hasTraffic
        ? 'No sessions in the window yet. Until there is traffic, start with at least 1 number per 20 expected daily visitors (CallTrackingMetrics) and read this again after a busy day.'
        : rec?.size == null
          ? `No pool reaches ${opt.target}: calls made long after the visit land on numbers held by others; the best is about ${round(rec?.ceiling ?? 0)}.`
          : null,
    },
    rules_of_thumb: hasTraffic ? rules : [],
  };
}

export type PoolHealthView = ReturnType<typeof poolHealthView>;
