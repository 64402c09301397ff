import { RECENT_HOLDER_GRACE_MS } from '../src/domain/dni/attribution.js';
import { poolHealthView } from '../src/domain/dni/pool-health.js';
import type { Store } from '../src/store/db.js';
import { recordInboundCall } from '../src/store/repos/calls.js';
import { openSessionBatch, type SessionRequest } from '../src/store/repos/dni-batch.js';
import { observePool } from '../src/store/repos/pool-health.js';
import type { SimEvent, TrafficShape } from './traffic.js';

/** The simulated clock starts on a Monday at midnight UTC, so hours of day line up. */
export const SIM_START = Date.parse('2026-01-05T00:00:00Z');
const ORG = 'org_sim';
const BATCH = 400;

export interface RunResult {
  size: number;
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
  /** (correct + campaignOnlyUnavoidable) / calls */
  accuracy: number;
  /** The pool endpoint's answer for this run's campaign, over the simulated period. */
  health: ReturnType<typeof poolHealthView>;
  seconds: number;
}

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

/** Replays one trace on a fresh campaign of `size` numbers through the real allocator and attribution. */
export async function replay(
  store: Store,
  shape: TrafficShape,
  trace: { events: SimEvent[]; visitors: number },
  size: number,
  target = 0.99,
): Promise<RunResult> {
  const started = performance.now();
  const c = await setupCampaign(store, size, shape.ttlSeconds);
  const numberOf: string[] = new Array(trace.visitors);
  const expiresAt = new Float64Array(trace.visitors);
  const calledBefore = new Uint8Array(trace.visitors);
  const visitorOf = new Map<string, number>();
  let batch: SessionRequest[] = [];
  let batchVisitors: number[] = [];
  let seq = 0;
  let sessions = 0;
  let shared = 0;
  const r = { calls: 0, correct: 0, wrongVisitor: 0, campaignOnly: 0, campaignOnlyUnavoidable: 0 };

  const flush = async () => {
    if (batch.length === 0) return;
    const opened = (await openSessionBatch(store, ORG, c.code, batch))!;
    opened.forEach((o, i) => {
      const v = batchVisitors[i]!;
      if (o.outcome !== 'sticky') {
        sessions++;
        visitorOf.set(o.sessionId, v);
      }
      if (o.outcome === 'shared') shared++;
      numberOf[v] = o.trackingNumber;
      expiresAt[v] = o.expiresAt.getTime();
    });
    batch = [];
    batchVisitors = [];
  };

  let last = SIM_START;
  for (const e of trace.events) {
    const at = new Date(SIM_START + e.t);
    last = at.getTime();
    if (e.kind === 'hit') {
      batch.push({ visitorId: `v${e.visitor}`, at, newSessionId: `ds_${c.run}_${seq++}` });
      batchVisitors.push(e.visitor);
      if (batch.length >= BATCH) await flush();
      continue;
    }
    await flush();
    const v = e.visitor;
    const recorded = await store.db.transaction((tx) =>
      recordInboundCall(
        tx,
        ORG,
        { to: numberOf[v]!, from: `+1555${String(v).padStart(7, '0')}`, startedAt: at },
        'simulator',
        null,
        at,
      ),
    );
    const sid = recorded!.attribution.sessionId;
    // Could any rule know the caller? Their session live or in grace, or an earlier attributed call.
    const knowable =
      at.getTime() <= expiresAt[v]! + RECENT_HOLDER_GRACE_MS || calledBefore[v] === 1;
    r.calls++;
    if (sid === null) {
      if (knowable) r.campaignOnly++;
      else r.campaignOnlyUnavoidable++;
    } else if (visitorOf.get(sid) === v) r.correct++;
    else r.wrongVisitor++;
    if (sid !== null) calledBefore[v] = 1;
  }
  await flush();

  const now = new Date(last + 60_000);
  const days = Math.max(1, Math.ceil((now.getTime() - SIM_START) / 86_400_000));
  const since = new Date(SIM_START);
  const observed = await observePool(store, c.id, since, now);
  const health = poolHealthView(c.code, observed, { days, target, since, now });
  return {
    size,
    sessions,
    sharedSessions: shared,
    ...r,
    accuracy: r.calls === 0 ? 1 : (r.correct + r.campaignOnlyUnavoidable) / r.calls,
    health,
    seconds: (performance.now() - started) / 1000,
  };
}
