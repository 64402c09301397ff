import { RECENT_HOLDER_GRACE_MS } from '../src/domain/dni/attribution.js';
import { poolHealthView } from '../src/domain/dni/pool-health.js';
import type { SessionOpenRequest } from '../src/domain/dni/ports.js';
import type { Store } from '../src/store/db.js';
import { observePool, type PoolObservation } from '../src/store/repos/pool-health.js';
import { attributeCalls } from './calls.js';
import { openSessionsWith, type Policy } from './policy.js';
import type { SimEvent, TrafficShape } from './traffic.js';

/** The simulated clock starts on a Monday at midnight UTC, so hours of day line up. */
export const SIM_START = Date.parse('2026-01-05T00:00:00Z');
const ORG = 'org_sim';
// Page requests per statement. Calls do not cut a batch: they are attributed
// after it (see flush), so batches stay this large whatever the call rate.
const BATCH = 2000;

export interface RunResult {
  size: number;
  policy: Policy;
  sessions: number;
  sharedSessions: number;
  calls: number;
  /** Given to the visitor who made it. */
  correct: number;
  /** Given to another visitor. */
  wrongVisitor: number;
  /** Left at campaign level although the rules could have known the caller. */
  campaignOnly: number;
  /** Left at campaign level, rightly: the caller's session was long over and they never called before. */
  campaignOnlyUnavoidable: number;
  /**
   * Calls, and wrong-visitor calls, by when the caller called (the sizing
   * model's call mix): while their session was live, in the 30 minutes after
   * it, or later.
   */
  byTiming: Record<CallTiming, { calls: number; wrong: number }>;
  /** (correct + campaignOnlyUnavoidable) / calls */
  accuracy: number;
  /** The pool endpoint's answer for this run's campaign, over the simulated period. */
  health: ReturnType<typeof poolHealthView>;
  /** What it was computed from. */
  observed: PoolObservation;
  seconds: number;
}

export type CallTiming = 'live' | 'grace' | 'late';

let runSeq = 0;

/** A campaign of `size` pool numbers, written directly: the admin API's checks add nothing here. */
async function setupCampaign(store: Store, size: number, ttlSeconds: number) {
  const run = runSeq++;
  const code = run.toString(36).padStart(3, '0');
  const id = `cmp_sim_${code}`;
  await store.query(
    `insert into orgs (id, name) values ($1, 'simulation') on conflict do nothing`,
    [ORG],
  );
  await store.query(
    `insert into campaigns (id, org_id, code, name, session_ttl_seconds) values ($1, $2, $3, 'sim', $4)`,
    [id, ORG, code, ttlSeconds],
  );
  // +1 2xx xxx xxxx, unique per run: numbers are unique across campaigns.
  await store.query(
    `insert into tracking_numbers (e164, org_id, campaign_id, role)
     select '+1' || (2000000000 + $3::bigint * 100000 + g)::text, $1, $2, 'pool'
       from generate_series(1, $4::int) g`,
    [ORG, id, run, size],
  );
  // Fresh planner statistics, as the admin API keeps them (bench/README.md).
  await store.query('analyze tracking_numbers', []);
  return { code, id, run };
}

/**
 * Replays one trace on a fresh campaign of `size` numbers through the real
 * allocator (dni_open_sessions, in batches) and attribution rule (attributeCall
 * over recordInboundCalls' reads, sim/calls.ts).
 *
 * Calls are attributed after the page requests of their batch, even those made
 * later than the call. That changes no attribution: a call at t reads the
 * sessions created by t, whether each was live at t (a later request can only
 * renew a session still live, so that answer stays) and when the expired ones
 * ended (never renewed again); and allocation never reads calls. Calls are
 * attributed in time order among themselves (the repeat-caller rule reads earlier calls).
 */
export async function replay(
  store: Store,
  shape: TrafficShape,
  trace: { events: SimEvent[]; visitors: number },
  size: number,
  target = 0.99,
  policy: Policy = 'clock',
): Promise<RunResult> {
  const started = performance.now();
  const c = await setupCampaign(store, size, shape.ttlSeconds);
  const numberOf: string[] = new Array(trace.visitors);
  const expiresAt = new Float64Array(trace.visitors);
  const calledBefore = new Uint8Array(trace.visitors);
  const visitorOf = new Map<string, number>();
  let pending: SimEvent[] = [];
  let hits = 0;
  let seq = 0;
  let sessions = 0;
  let shared = 0;
  const r = { calls: 0, correct: 0, wrongVisitor: 0, campaignOnly: 0, campaignOnlyUnavoidable: 0 };
  const byTiming: RunResult['byTiming'] = {
    live: { calls: 0, wrong: 0 },
    grace: { calls: 0, wrong: 0 },
    late: { calls: 0, wrong: 0 },
  };
  const repeatOf = new Map<string, string>();
  const callSeq = { next: 0 };

  const flush = async () => {
    if (pending.length === 0) return;
    const requests: SessionOpenRequest[] = [];
    for (const e of pending) {
      if (e.kind !== 'hit') continue;
      requests.push({
        orgId: ORG,
        campaignCode: c.code,
        visitorId: `v${e.visitor}`,
        now: new Date(SIM_START + e.t),
        newSessionId: `ds_${c.run}_${seq++}`,
        attrs: {},
      });
    }
    const opened = requests.length > 0 ? await openSessionsWith(store, policy, requests) : [];
    // Walk the batch in time order: each call sees the number its caller was
    // shown and their session's expiry as they stood at the call.
    const calls: { visitor: number; from: string; at: Date; to: string; timing: CallTiming }[] = [];
    let k = 0;
    for (const e of pending) {
      const v = e.visitor;
      if (e.kind === 'call') {
        calls.push({
          visitor: v,
          from: `+1555${String(v).padStart(7, '0')}`,
          at: new Date(SIM_START + e.t),
          to: numberOf[v]!,
          timing:
            e.t + SIM_START < expiresAt[v]!
              ? 'live'
              : e.t + SIM_START <= expiresAt[v]! + RECENT_HOLDER_GRACE_MS
                ? 'grace'
                : 'late',
        });
        continue;
      }
      const o = opened[k++]!;
      if (!('sessionId' in o)) throw new Error(`simulated request failed: ${o.outcome}`);
      if (o.outcome !== 'sticky') {
        sessions++;
        visitorOf.set(o.sessionId, v);
      }
      if (o.outcome === 'shared') shared++;
      numberOf[v] = o.trackingNumber;
      expiresAt[v] = o.expiresAt.getTime();
    }
    pending = [];
    hits = 0;
    if (calls.length === 0) return;
    const attributed = await attributeCalls(
      store,
      { orgId: ORG, id: c.id, run: c.run },
      calls.map((k) => ({ to: k.to, from: k.from, at: k.at })),
      repeatOf,
      callSeq,
    );
    calls.forEach((call, i) => {
      const v = call.visitor;
      const sid = attributed[i]!.sessionId;
      // Could any rule know the caller? Their session live or in grace, or an earlier attributed call.
      const knowable = call.timing !== 'late' || calledBefore[v] === 1;
      r.calls++;
      byTiming[call.timing].calls++;
      if (sid === null) {
        if (knowable) r.campaignOnly++;
        else r.campaignOnlyUnavoidable++;
      } else if (visitorOf.get(sid) === v) r.correct++;
      else {
        r.wrongVisitor++;
        byTiming[call.timing].wrong++;
      }
      if (sid !== null) calledBefore[v] = 1;
    });
  };

  let last = SIM_START;
  for (const e of trace.events) {
    last = SIM_START + e.t;
    pending.push(e);
    if (e.kind === 'hit' && ++hits >= BATCH) await flush();
  }
  await flush();

  const now = new Date(last + 60_000);
  const days = Math.max(1, Math.ceil((now.getTime() - SIM_START) / 86_400_000));
  const since = new Date(SIM_START);
  const observed = await observePool(store.db, c.id, since, now);
  const health = poolHealthView(c.code, observed, { days, target, since, now });
  return {
    size,
    policy,
    sessions,
    sharedSessions: shared,
    ...r,
    byTiming,
    accuracy: r.calls === 0 ? 1 : (r.correct + r.campaignOnlyUnavoidable) / r.calls,
    health,
    observed,
    seconds: (performance.now() - started) / 1000,
  };
}
