/**
 * Caps under concurrency (docs/routing.md, "Cap counting"): 64 calls at once through the voice
 * webhook, on PostgreSQL (PGlite runs one statement at a time, so nothing there is concurrent).
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  acceptInboundCalls,
  type RingingRequest,
} from '../../src/domain/carrier-inbound/inbound.js';
import type { Transaction } from '../../src/domain/ports.js';
import { openStore } from '../../src/store/db.js';
import {
  adminCall,
  createTenant,
  type Harness,
  json,
  type Tenant,
  useHarness,
  withHarness,
} from '../helpers/harness.js';
import { admin, createBuyer, seeded, setRouting } from '../helpers/routing.js';
import { itConcurrently, type TestStore, untilWaitingOnLock } from '../helpers/store.js';
import { newSid, PUBLIC_BASE, TWILIO_TOKEN } from '../helpers/twilio-webhook.js';
import { callEnded, dialEnded, ring } from '../helpers/voice.js';

const twilio = { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE };
const base = useHarness({ twilio });
const FALLBACK = '+13125550199';
const CALLS = 64;
/** The harness a test runs on: `base`, or a wide-pool one for the concurrent tests. */
let h: Harness = base;

/**
 * `fn` on a harness over the same database whose pool has 16 connections and waits up to 30 s
 * for one: 64 requests at once queue for connections, and the test checks the caps, not how
 * long a loaded machine makes the queue.
 */
async function withWidePool(fn: () => Promise<void>): Promise<void> {
  const store = await openStore({
    databaseUrl: base.store.url,
    poolSize: 16,
    connectTimeoutMs: 30_000,
  });
  try {
    await withHarness({ store: store as TestStore, twilio }, async (wide) => {
      h = wide;
      try {
        await fn();
      } finally {
        h = base;
      }
    });
  } finally {
    await store.close();
  }
}

/** A distinct New York caller per call: no two calls share a caller's report row. */
const caller = (i: number) => `+1212555${String(2000 + i)}`;

async function routedTenant(): Promise<Tenant> {
  const t = await createTenant(h);
  await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, {
    forward_to: FALLBACK,
  });
  return t;
}

const usageOf = async (t: Tenant, buyerId: string) =>
  json(await admin(h, 'GET', `/admin/orgs/${t.orgId}/buyers/${buyerId}`)).usage;

const offersTo = async (buyerId: string) =>
  Number(
    (
      await h.store.query<{ n: string }>(
        'select count(*) as n from call_offers where buyer_id = $1',
        [buyerId],
      )
    )[0]!.n,
  );

describe('caps', () => {
  for (const [cap, limit] of [
    ['hourly', 10],
    ['daily', 12],
    ['total', 9],
    ['concurrency', 6],
  ] as const) {
    itConcurrently(
      `64 calls at once at one buyer: its ${cap} cap of ${limit} exactly reached, never exceeded`,
      () =>
        withWidePool(async () => {
          const t = await routedTenant();
          const buyer = await createBuyer(h, t.orgId, {
            forward_to: '+13125550201',
            caps: { [cap]: limit },
          });
          await setRouting(h, t.orgId, t.code, {
            targets: [{ buyer_id: buyer.buyer_id, priority: 1 }],
          });
          const calls = await Promise.all(
            Array.from({ length: CALLS }, (_, i) => ring(h, t.numbers[0]!, caller(i))),
          );
          const rung: Record<string, number> = {};
          for (const c of calls) {
            const to = c.step.kind === 'dial' ? c.step.number : c.step.kind;
            rung[to] = (rung[to] ?? 0) + 1;
          }
          expect(rung).toEqual({ '+13125550201': limit, [FALLBACK]: CALLS - limit });
          expect((await usageOf(t, buyer.buyer_id))[cap]).toBe(limit);
          expect(await offersTo(buyer.buyer_id)).toBe(limit);
          const fallbacks = await h.store.query<{ reason: string }>(
            `select fallback_reason as reason from calls where org_id = $1 and fallback is not null`,
            [t.orgId],
          );
          expect(fallbacks.map((f) => f.reason)).toEqual(Array(CALLS - limit).fill('no_target'));
        }),
      120_000,
    );
  }

  itConcurrently(
    'an unanswered offer frees its place; an answered one keeps it but leaves the concurrency count',
    () =>
      withWidePool(async () => {
        const t = await routedTenant();
        const daily = await createBuyer(h, t.orgId, {
          forward_to: '+13125550211',
          caps: { daily: 3, concurrency: 3 },
        });
        await setRouting(h, t.orgId, t.code, {
          targets: [{ buyer_id: daily.buyer_id, priority: 1 }],
        });
        const calls = await Promise.all(
          Array.from({ length: 8 }, (_, i) => ring(h, t.numbers[0]!, caller(i))),
        );
        const offered = calls.filter((c) => c.step.kind === 'dial' && c.step.path !== null);
        expect(offered).toHaveLength(3);
        // One busy: its place comes back, and the call itself goes to the fallback (no one left).
        expect(await dialEnded(h, offered[0]!, offered[0]!.step, 'busy')).toMatchObject({
          number: FALLBACK,
        });
        expect(await usageOf(t, daily.buyer_id)).toMatchObject({ daily: 2, concurrency: 2 });
        // One answered and ended: still counted for the day, no longer live.
        await dialEnded(h, offered[1]!, offered[1]!.step, 'completed', 60);
        expect(await usageOf(t, daily.buyer_id)).toMatchObject({ daily: 2, concurrency: 1 });
        // The third never reported by its Dial: the call's own end frees it.
        await callEnded(h, offered[2]!.callSid, 'completed');
        expect(await usageOf(t, daily.buyer_id)).toMatchObject({ daily: 1, concurrency: 0 });
        // Two places free again: 64 more calls at once, exactly two offered.
        const more = await Promise.all(
          Array.from({ length: CALLS }, (_, i) => ring(h, t.numbers[0]!, caller(100 + i))),
        );
        expect(more.filter((c) => c.step.kind === 'dial' && c.step.path !== null)).toHaveLength(2);
        expect(await usageOf(t, daily.buyer_id)).toMatchObject({ daily: 3, concurrency: 2 });
      }),
    120_000,
  );

  itConcurrently(
    "no call waits on another organization's: a buyer's row locked elsewhere holds only its own calls",
    () =>
      withWidePool(async () => {
        const a = await routedTenant();
        const b = await routedTenant();
        const buyerA = await createBuyer(h, a.orgId, { forward_to: '+13125550221' });
        const buyerB = await createBuyer(h, b.orgId, { forward_to: '+13125550222' });
        await setRouting(h, a.orgId, a.code, {
          targets: [{ buyer_id: buyerA.buyer_id, priority: 1 }],
        });
        await setRouting(h, b.orgId, b.code, {
          targets: [{ buyer_id: buyerB.buyer_id, priority: 1 }],
        });
        // One call each first: the numbers' organizations are learned, so what follows is
        // batched by organization, as a running service batches it.
        await ring(h, a.numbers[0]!, caller(299));
        await ring(h, b.numbers[0]!, caller(298));
        const holder = new pg.Client({ connectionString: base.store.url });
        await holder.connect();
        try {
          await holder.query('begin');
          await holder.query('select 1 from buyer_usage where buyer_id = $1 for update', [
            buyerA.buyer_id,
          ]);
          let aDone = false;
          const aCall = ring(h, a.numbers[0]!).then((c) => {
            aDone = true;
            return c;
          });
          const bCalls = await Promise.all(
            Array.from({ length: 16 }, (_, i) => ring(h, b.numbers[0]!, caller(300 + i))),
          );
          expect(
            bCalls.every((c) => c.step.kind === 'dial' && c.step.number === '+13125550222'),
          ).toBe(true);
          expect(aDone).toBe(false);
          await holder.query('commit');
          expect((await aCall).step).toMatchObject({ number: '+13125550221' });
        } finally {
          await holder.end();
        }
      }),
    120_000,
  );
});

describe('lock order', () => {
  itConcurrently(
    'two batches that try the same buyers in opposite orders never deadlock',
    async () => {
      const t = await routedTenant();
      const ids = (
        await Promise.all(
          [1, 2, 3].map(() =>
            createBuyer(h, t.orgId, { forward_to: '+13125550241', caps: { total: 1 } }),
          ),
        )
      )
        .map((b) => b.buyer_id as string)
        .sort();
      const [a, b, c] = ids as [string, string, string];
      const callIds: string[] = [];
      for (let i = 0; i < 5; i++) {
        const rec = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
          to: t.numbers[0],
          from: caller(400 + i),
        });
        callIds.push(rec.call_id);
      }
      // One offer a call, each call trying one buyer: the batch takes its buyers in this order.
      const offers = (calls: [string, string][]) =>
        JSON.stringify(
          calls.map(([callId, buyer], i) => ({
            ord: i + 1,
            id: `ofr_lock_${callId}`,
            org_id: t.orgId,
            call_id: callId,
            seq: 1,
            at: '2026-03-02T15:00:00Z',
            buyers: [ids.indexOf(buyer) + 1],
            fallback: 'hangup',
            reason: 'no_target',
            audit_id: `aud_lock_${callId}`,
            actor: 'test',
            request_id: null,
          })),
        );
      const [holder, first, second, watcher] = Array.from(
        { length: 4 },
        () => new pg.Client({ connectionString: base.store.url }),
      ) as [pg.Client, pg.Client, pg.Client, pg.Client];
      await Promise.all([holder, first, second, watcher].map((x) => x.connect()));
      const pidOf = async (client: pg.Client) =>
        (await client.query('select pg_backend_pid() as pid')).rows[0].pid as number;
      try {
        const [firstPid, secondPid] = [await pidOf(first), await pidOf(second)];
        // c is held elsewhere, so the first batch stops at c, having taken what comes before.
        await holder.query('begin');
        await holder.query('select 1 from buyer_usage where buyer_id = $1 for update', [c]);
        await first.query('begin');
        const firstRun = first.query('select * from routing_offer_first($1::text[], $2::jsonb)', [
          ids,
          offers([
            [callIds[0]!, a],
            [callIds[1]!, c],
            [callIds[2]!, b],
          ]),
        ]);
        firstRun.catch(() => {});
        await untilWaitingOnLock(watcher, firstPid);
        // The second batch tries b, then a. Taking buyers in its own order, it would hold b
        // and wait for a while the first held a and waited for b: a deadlock, which
        // PostgreSQL breaks by failing one of them. Locked in buyer order, it waits for a.
        await second.query('begin');
        const secondRun = second.query('select * from routing_offer_first($1::text[], $2::jsonb)', [
          ids,
          offers([
            [callIds[3]!, b],
            [callIds[4]!, a],
          ]),
        ]);
        secondRun.catch(() => {});
        await untilWaitingOnLock(watcher, secondPid);
        await holder.query('commit');
        const firstRows = (await firstRun).rows;
        await first.query('commit');
        const secondRows = (await secondRun).rows;
        await second.query('commit');
        // Each buyer's one place went to the first batch; the second found them all taken.
        expect(firstRows.map((r) => r.buyer_id)).toEqual([a, c, b]);
        expect(secondRows.map((r) => r.buyer_id)).toEqual([null, null]);
      } finally {
        await Promise.all([holder, first, second, watcher].map((x) => x.end()));
      }
    },
    60_000,
  );
});

describe('a lone call', () => {
  itConcurrently(
    'waits for no buyer it does not take',
    async () => {
      const t = await routedTenant();
      const [a, c] = (
        await Promise.all([1, 2].map(() => createBuyer(h, t.orgId, { forward_to: '+13125550242' })))
      ).map((b) => b.buyer_id as string) as [string, string];
      const rec = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
        to: t.numbers[0],
        from: caller(450),
      });
      const [holder, lone] = Array.from(
        { length: 2 },
        () => new pg.Client({ connectionString: base.store.url }),
      ) as [pg.Client, pg.Client];
      await Promise.all([holder, lone].map((x) => x.connect()));
      try {
        // Another call's transaction holds c's row (it took a place there and has not
        // committed). A lone call that would try a, then c, takes a at once: it has no reason
        // to wait for c. Locking every buyer it names first, it would wait until the lock
        // timeout failed it.
        await holder.query('begin');
        await holder.query('select 1 from buyer_usage where buyer_id = $1 for update', [c]);
        await lone.query('begin');
        await lone.query("set local lock_timeout = '200ms'");
        const { rows } = await lone.query(
          'select * from routing_offer_first($1::text[], $2::jsonb)',
          [
            [a, c],
            JSON.stringify([
              {
                ord: 1,
                id: `ofr_lone_${rec.call_id}`,
                org_id: t.orgId,
                call_id: rec.call_id,
                seq: 1,
                at: '2026-03-02T15:00:00Z',
                buyers: [1, 2],
                fallback: 'hangup',
                reason: 'no_target',
                audit_id: `aud_lone_${rec.call_id}`,
                actor: 'test',
                request_id: null,
              },
            ]),
          ],
        );
        await lone.query('commit');
        expect(rows.map((r) => r.buyer_id)).toEqual([a]);
        await holder.query('commit');
        expect((await usageOf(t, a)).total).toBe(1);
      } finally {
        await Promise.all([holder, lone].map((x) => x.end()));
      }
    },
    60_000,
  );
});

describe('lock order of the callers', () => {
  itConcurrently(
    "two batches whose callers come in opposite orders never deadlock on the callers' report rows",
    () =>
      withWidePool(async () => {
        const t = await createTenant(h, { numbers: 1 });
        // Three callers known already (their report_callers rows exist), in caller order.
        const [p, q, r] = [caller(500), caller(501), caller(502)] as const;
        for (const from of [p, q, r]) {
          await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, { to: t.numbers[0], from });
        }
        const ringing = (from: string): RingingRequest => ({
          ctx: {
            carrier: 'twilio',
            requestId: null,
            now: new Date(h.clock.now()),
            random: seeded(3),
          },
          call: { callSid: newSid('CA'), to: t.numbers[0]!, from, status: 'ringing' },
        });
        // Every run of a batch's transaction: a deadlock fails one and db.ts runs it again.
        let runs = 0;
        const repos = {
          ...h.deps.repos,
          transaction: <T>(fn: (tx: Transaction) => Promise<T>) =>
            h.deps.repos.transaction((tx) => {
              runs++;
              return fn(tx);
            }),
        };
        const [holder, watcher] = [base.store.url, base.store.url].map(
          (url) => new pg.Client({ connectionString: url }),
        ) as [pg.Client, pg.Client];
        await Promise.all([holder.connect(), watcher.connect()]);
        // A state, not a time: until n batches wait on a lock.
        const waiting = async (n: number) => {
          for (let i = 0; i < 500; i++) {
            const w = await watcher.query(
              `select count(*)::int as n from pg_stat_activity
                where wait_event_type = 'Lock' and query like '%insert into calls%'`,
            );
            if (w.rows[0].n >= n) return;
            await new Promise((res) => setTimeout(res, 10));
          }
          throw new Error('never blocked');
        };
        try {
          await holder.query('begin');
          await holder.query(
            'select 1 from report_callers where org_id = $1 and caller = $2 for update',
            [t.orgId, r],
          );
          // The first batch holds p's row and waits for r's; the second, in its own order,
          // would hold q's and wait for p's, and the first then waits for q's.
          const first = acceptInboundCalls(repos, [ringing(p), ringing(r), ringing(q)]);
          first.catch(() => {});
          await waiting(1);
          const second = acceptInboundCalls(repos, [ringing(q), ringing(p)]);
          second.catch(() => {});
          await waiting(2);
          await holder.query('commit');
          const answers = [...(await first), ...(await second)];
          expect(answers.map((a) => a.kind)).toEqual(Array(5).fill('no_forward'));
          expect(runs).toBe(2);
        } finally {
          await Promise.all([holder, watcher].map((x) => x.end()));
        }
      }),
    60_000,
  );
});

describe('one call at a time (both stores)', () => {
  it('an hourly cap, and the next hour in the buyer’s zone', async () => {
    const t = await routedTenant();
    const b = await createBuyer(h, t.orgId, { forward_to: '+13125550231', caps: { hourly: 2 } });
    await setRouting(h, t.orgId, t.code, { targets: [{ buyer_id: b.buyer_id, priority: 1 }] });
    const steps = [];
    for (let i = 0; i < 4; i++) steps.push((await ring(h, t.numbers[0]!)).step);
    expect(steps.map((s) => (s.kind === 'dial' ? s.number : s.kind))).toEqual([
      '+13125550231',
      '+13125550231',
      FALLBACK,
      FALLBACK,
    ]);
    // The next hour in the buyer's zone starts a new count.
    h.clock.advance(3600);
    expect((await ring(h, t.numbers[0]!)).step).toMatchObject({ number: '+13125550231' });
    expect(await usageOf(t, b.buyer_id)).toMatchObject({ hourly: 1, total: 3 });
  });
});
