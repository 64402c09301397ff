import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { openSessions } from '../../src/store/repos/dni.js';
import {
  adminCall,
  createTenant,
  dni,
  freshNumbers,
  type Harness,
  json,
  useHarness,
} from '../helpers/harness.js';
import { itConcurrently } from '../helpers/store.js';

const h = useHarness();

/** How many batches the app has sent, and how many requests were in them. */
async function batchCounts(x: Harness): Promise<{ batches: number; requests: number }> {
  const metric = await x.deps.metrics.dniBatchSize.get();
  const count = metric.values.find((v) => v.metricName === 'dni_batch_size_count')?.value ?? 0;
  const sum = metric.values.find((v) => v.metricName === 'dni_batch_size_sum')?.value ?? 0;
  return { batches: count, requests: sum };
}

async function liveSessions(orgId: string) {
  return h.store.query<{
    id: string;
    visitor_id: string;
    campaign_id: string;
    tracking_number: string;
    kind: string;
    ambiguous: boolean;
  }>(
    `select id, visitor_id, campaign_id, tracking_number, kind, ambiguous
       from dni_sessions where org_id = $1 and expires_at > $2`,
    [orgId, new Date(h.clock.now())],
  );
}

describe('batched opens', () => {
  it('opens concurrent requests together, each with its own answer', async () => {
    const a = await createTenant(h, { numbers: 20, rateLimit: 100_000 });
    const b = await createTenant(h, { numbers: 2 });
    const before = await batchCounts(h);
    const open = (visitor: string, code = a.code) =>
      dni(h, a.key, { campaign_code: code, visitor_id: visitor });
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => open(`new-${i}`)),
      open('nowhere', 'zz9'),
      // Another organization's campaign is a missing one.
      open('theirs', b.code),
      open('twice'),
      open('twice'),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([...Array(10).fill(201), 404, 404, 201, 201]);
    const after = await batchCounts(h);
    expect(after.requests - before.requests).toBe(14);
    // Fewer statements than requests: they went together.
    expect(after.batches - before.batches).toBeLessThan(14);
    const twice = results.slice(12).map((r) => json(r));
    expect(twice[0].dni_session_id).toBe(twice[1].dni_session_id);
    const live = await liveSessions(a.orgId);
    expect(live).toHaveLength(11);
    // Eleven visitors, eleven different free numbers.
    expect(new Set(live.map((s) => s.tracking_number)).size).toBe(11);
    expect(live.every((s) => s.kind === 'allocated' && !s.ambiguous)).toBe(true);
    expect(await liveSessions(b.orgId)).toEqual([]);
  });
});

describe('one batch, one free number', () => {
  // dni_open_sessions writes a batch's sessions together, after deciding
  // them: a number handed out earlier in the batch must still be taken for
  // the requests after it, and a visitor's second request must find the
  // session its first one opened.
  /** A request of `a`'s campaign at `at`; openSessions sends a list of them as one statement. */
  const request = (a: { orgId: string; code: string }, visitorId: string, at = h.clock.now()) => ({
    orgId: a.orgId,
    campaignCode: a.code,
    visitorId,
    now: new Date(at),
    newSessionId: newId('ds', at),
    attrs: {},
  });

  it('hands the last free number once: the requests after it share', async () => {
    const a = await createTenant(h, { numbers: 2 });
    expect((await dni(h, a.key, { campaign_code: a.code, visitor_id: 'first' })).statusCode).toBe(
      201,
    );
    // One statement: the batcher may split concurrent requests, this cannot.
    const results = await openSessions(
      h.store,
      ['x', 'y', 'y', 'x'].map((v) => request(a, v)),
    );
    expect(results.map((r) => r.outcome)).toEqual(['allocated', 'shared', 'sticky', 'sticky']);
    const [x, y, yAgain, xAgain] = results as { sessionId: string; trackingNumber: string }[];
    expect(xAgain!.sessionId).toBe(x!.sessionId);
    expect(yAgain!.sessionId).toBe(y!.sessionId);
    const live = await liveSessions(a.orgId);
    expect(live).toHaveLength(3);
    const byVisitor = new Map(live.map((s) => [s.visitor_id, s]));
    // The two numbers went to 'first' and 'x'; 'y' shares one of them, whose sessions are flagged.
    expect(byVisitor.get('x')).toMatchObject({
      kind: 'allocated',
      tracking_number: x!.trackingNumber,
    });
    expect(byVisitor.get('first')!.tracking_number).not.toBe(x!.trackingNumber);
    expect(byVisitor.get('y')).toMatchObject({
      kind: 'shared',
      ambiguous: true,
      tracking_number: y!.trackingNumber,
    });
    expect(
      live.filter((s) => s.tracking_number === y!.trackingNumber).every((s) => s.ambiguous),
    ).toBe(true);
    const held = await h.store.query<{ e164: string; held_by: string | null }>(
      `select e164, held_by from tracking_numbers where e164 = $1`,
      [x!.trackingNumber],
    );
    expect(held[0]!.held_by).not.toBeNull();
  });

  it('shares with the allocations before it in place, whatever the order of their times', async () => {
    // The pool was found full until t+1 s. A request at t+2 s finds it free
    // again and takes the free number; one at t+0.5 s after it in the same
    // batch still finds the pool full and shares: the least recently handed
    // number, which is no longer the one just taken.
    const a = await createTenant(h, { numbers: 2 });
    const first = json(await dni(h, a.key, { campaign_code: a.code, visitor_id: 'first' }));
    const t = h.clock.now();
    await h.store.query(
      'update campaigns set pool_full_until = $3 where org_id = $1 and code = $2',
      [a.orgId, a.code, new Date(t + 1_000)],
    );
    const results = await openSessions(h.store, [
      request(a, 'x', t + 2_000),
      request(a, 'y', t + 500),
    ]);
    expect(results.map((r) => r.outcome)).toEqual(['allocated', 'shared']);
    const [x, y] = results as { trackingNumber: string }[];
    expect(x!.trackingNumber).not.toBe(first.tracking_number);
    expect(y!.trackingNumber).toBe(first.tracking_number);
    const live = await liveSessions(a.orgId);
    expect(live.find((s) => s.visitor_id === 'x')).toMatchObject({
      kind: 'allocated',
      ambiguous: false,
    });
    expect(live.find((s) => s.visitor_id === 'first')).toMatchObject({ ambiguous: true });
  });

  it('shares each number in turn within a batch, the least recently assigned first', async () => {
    // Both numbers held; the higher one was assigned longer ago. Three shares
    // in one batch: the higher, then the lower (the higher is now the more
    // recent), then the higher again. The batch writes its shares together,
    // so the third finds both numbers shared earlier in the batch.
    const a = await createTenant(h, { numbers: 2 });
    for (const v of ['first', 'second'])
      expect((await dni(h, a.key, { campaign_code: a.code, visitor_id: v })).statusCode).toBe(201);
    const t = h.clock.now();
    const [lo, hi] = [...a.numbers].sort() as [string, string];
    await h.store.query(
      `update tracking_numbers set last_assigned_at = $2::timestamptz
            - case when e164 = $3 then interval '2 seconds' else interval '1 second' end
        where org_id = $1`,
      [a.orgId, new Date(t), hi],
    );
    const results = (await openSessions(h.store, [
      request(a, 'x', t + 100),
      request(a, 'y', t + 200),
      request(a, 'z', t + 300),
    ])) as { outcome: string; trackingNumber: string; sessionId: string }[];
    expect(results.map((r) => r.outcome)).toEqual(['shared', 'shared', 'shared']);
    expect(results.map((r) => r.trackingNumber)).toEqual([hi, lo, hi]);
    const held = await h.store.query<{ e164: string; held_by: string; last_assigned_at: Date }>(
      'select e164, held_by, last_assigned_at from tracking_numbers where org_id = $1 order by e164',
      [a.orgId],
    );
    expect(held.map((n) => [n.e164, n.held_by, new Date(n.last_assigned_at).getTime()])).toEqual([
      [lo, results[1]!.sessionId, t + 200],
      [hi, results[2]!.sessionId, t + 300],
    ]);
    // The allocated sessions are flagged, once each (their counters count one flag each).
    const live = await liveSessions(a.orgId);
    expect(live).toHaveLength(5);
    expect(live.every((s) => s.ambiguous)).toBe(true);
  });

  it("gives each campaign's full pool its own overflow number, or none, within one batch", async () => {
    const a = await createTenant(h, { numbers: 1, overflow: true });
    const b = await createTenant(h, { numbers: 1 });
    for (const t of [a, b])
      expect((await dni(h, t.key, { campaign_code: t.code, visitor_id: 'first' })).statusCode).toBe(
        201,
      );
    const results = (await openSessions(h.store, [
      request(a, 'x'),
      request(b, 'y'),
      request(a, 'z'),
      request(b, 'w'),
    ])) as { outcome: string; trackingNumber: string }[];
    expect(results.map((r) => r.outcome)).toEqual(['overflow', 'shared', 'overflow', 'shared']);
    const [overflowA] = (
      await h.store.query<{ e164: string }>(
        `select e164 from tracking_numbers where org_id = $1 and role = 'overflow'`,
        [a.orgId],
      )
    ).map((r) => r.e164);
    const [poolB] = b.numbers;
    expect(results.map((r) => r.trackingNumber)).toEqual([overflowA, poolB, overflowA, poolB]);
  });

  it('fills the pool within a batch and remembers until when it is full', async () => {
    const a = await createTenant(h, { numbers: 2 });
    const now = new Date(h.clock.now());
    const results = await openSessions(
      h.store,
      ['x', 'y', 'z'].map((v) => request(a, v)),
    );
    expect(results.map((r) => r.outcome)).toEqual(['allocated', 'allocated', 'shared']);
    const [x, y] = results as { trackingNumber: string }[];
    expect(x!.trackingNumber).not.toBe(y!.trackingNumber);
    // Both numbers are held until the sessions expire (the default 1,800 s), and so is the pool.
    const [campaign] = await h.store.query<{ pool_full_until: Date | string | null }>(
      'select pool_full_until from campaigns where org_id = $1 and code = $2',
      [a.orgId, a.code],
    );
    expect(new Date(campaign!.pool_full_until as string).getTime()).toBe(now.getTime() + 1_800_000);
  });
});

describe('the clock over the pool', () => {
  async function slots(orgId: string, code: string) {
    const rows = await h.store.query<{ e164: string; slot: number | null; role: string }>(
      `select n.e164, n.slot, n.role from tracking_numbers n
         join campaigns c on c.id = n.campaign_id
        where c.org_id = $1 and c.code = $2 order by n.slot nulls last, n.e164`,
      [orgId, code],
    );
    const size = await h.store.query<{ pool_size: number }>(
      'select pool_size from campaigns where org_id = $1 and code = $2',
      [orgId, code],
    );
    return { rows, poolSize: size[0]!.pool_size };
  }

  it('keeps the slots dense and in order as numbers are added and removed', async () => {
    const t = await createTenant(h, { numbers: 5, overflow: true });
    let s = await slots(t.orgId, t.code);
    expect(s.rows.filter((r) => r.role === 'pool').map((r) => r.slot)).toEqual([0, 1, 2, 3, 4]);
    expect(s.rows.find((r) => r.role === 'overflow')?.slot).toBeNull();
    expect(s.poolSize).toBe(5);
    const order = s.rows.filter((r) => r.role === 'pool').map((r) => r.e164);

    const added = freshNumbers(2);
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/campaigns/${t.code}/numbers`, {
      numbers: added,
    });
    s = await slots(t.orgId, t.code);
    expect(s.rows.filter((r) => r.role === 'pool').map((r) => r.e164)).toEqual([
      ...order,
      ...added.sort(),
    ]);
    expect(s.poolSize).toBe(7);

    // Remove the second and the fourth: the others keep their order, closing the gaps.
    const kept = [order[0]!, order[2]!, order[4]!, ...added];
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, { numbers: kept });
    s = await slots(t.orgId, t.code);
    const pool = s.rows.filter((r) => r.role === 'pool');
    expect(pool.map((r) => r.slot)).toEqual([0, 1, 2, 3, 4]);
    expect(pool.map((r) => r.e164)).toEqual(kept);
    expect(s.poolSize).toBe(5);
  });

  it('shares once the pool is full, and allocates again as soon as a number frees', async () => {
    const t = await createTenant(h, { numbers: 2, ttl: 300, rateLimit: 100_000 });
    const open = async (visitor: string) =>
      json(await dni(h, t.key, { campaign_code: t.code, visitor_id: visitor }));
    const v1 = await open('v1');
    await open('v2');
    await open('v3'); // shared: the pool is full until v1's session ends
    h.clock.advance(301);
    const v4 = await open('v4');
    const rows = await liveSessions(t.orgId);
    expect(rows.find((r) => r.id === v4.dni_session_id)).toMatchObject({
      kind: 'allocated',
      ambiguous: false,
    });
    expect(t.numbers).toContain(v1.tracking_number);
  });

  it('allocates a number added to a full pool at once', async () => {
    const t = await createTenant(h, { numbers: 2, ttl: 300, rateLimit: 100_000 });
    const open = async (visitor: string) =>
      json(await dni(h, t.key, { campaign_code: t.code, visitor_id: visitor }));
    await open('v1');
    await open('v2');
    await open('v3'); // shared
    const [added] = freshNumbers(1);
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/campaigns/${t.code}/numbers`, {
      numbers: [added],
    });
    const v4 = await open('v4');
    expect(v4.tracking_number).toBe(added);
    const rows = await liveSessions(t.orgId);
    expect(rows.find((r) => r.id === v4.dni_session_id)).toMatchObject({
      kind: 'allocated',
      ambiguous: false,
    });
  });
});

/**
 * The batcher hammered: new visitors, returning visitors and an exhausted pool
 * at once, many requests in flight. PostgreSQL runs two batches at a time on
 * separate connections, so batches really race each other there.
 */
describe('batched opens under load', () => {
  itConcurrently(
    'answers every request 201 with no deadlock and keeps the allocation invariants',
    async () => {
      const roomy = await createTenant(h, { numbers: 1_000, rateLimit: 1_000_000 });
      const tight = await createTenant(h, { numbers: 16, rateLimit: 1_000_000 });
      const before = await batchCounts(h);
      const statuses: number[] = [];
      const answers = new Map<string, string>();
      for (let round = 0; round < 8; round++) {
        const wave = Array.from({ length: 96 }, (_, i) => {
          const t = i % 3 === 2 ? tight : roomy;
          // A third of the requests are returning visitors of earlier rounds.
          const visitor = i % 4 === 0 && round > 0 ? `r${round - 1}-${i}` : `r${round}-${i}`;
          return dni(h, t.key, { campaign_code: t.code, visitor_id: visitor }).then((res) => {
            statuses.push(res.statusCode);
            if (res.statusCode === 201) {
              const key = `${t.code}/${visitor}`;
              const id = json(res).dni_session_id as string;
              // A returning visitor gets its session back.
              if (answers.has(key)) expect(answers.get(key)).toBe(id);
              answers.set(key, id);
            }
          });
        });
        await Promise.all(wave);
      }
      expect(statuses.filter((s) => s !== 201)).toEqual([]);
      const after = await batchCounts(h);
      expect(after.requests - before.requests).toBe(8 * 96);
      expect(after.batches - before.batches).toBeLessThan((8 * 96) / 4);

      for (const t of [roomy, tight]) {
        const live = await liveSessions(t.orgId);
        // One live session per visitor.
        expect(new Set(live.map((s) => s.visitor_id)).size).toBe(live.length);
        // A number held by several live visitors only by sharing, all but the first flagged.
        const byNumber = new Map<string, typeof live>();
        for (const s of live)
          byNumber.set(s.tracking_number, [...(byNumber.get(s.tracking_number) ?? []), s]);
        for (const holders of byNumber.values()) {
          if (holders.length > 1) {
            expect(holders.filter((s) => !s.ambiguous).length).toBeLessThanOrEqual(1);
          }
        }
        // Every acknowledged session is in the database.
        const ids = new Set(live.map((s) => s.id));
        for (const [key, id] of answers)
          if (key.startsWith(`${t.code}/`)) expect(ids.has(id)).toBe(true);
      }
      // The roomy pool never ran out; the tight one shared.
      const roomyLive = await liveSessions(roomy.orgId);
      expect(roomyLive.every((s) => s.kind === 'allocated' && !s.ambiguous)).toBe(true);
      const tightLive = await liveSessions(tight.orgId);
      expect(tightLive.some((s) => s.kind === 'shared')).toBe(true);
      const deadlocks = await h.store.query<{ n: string }>(
        'select deadlocks::text as n from pg_stat_database where datname = current_database()',
        [],
      );
      expect(Number(deadlocks[0]!.n)).toBe(0);
    },
    60_000,
  );
});
