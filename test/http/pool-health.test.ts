import { describe, expect, it } from 'vitest';
import { observePool } from '../../src/store/repos/pool-health.js';
import {
  ADMIN_TOKEN,
  adminCall,
  createTenant,
  dni,
  json,
  type Tenant,
  useHarness,
} from '../helpers/harness.js';

const h = useHarness();

const pool = (orgId: string, code: string, query = '', token = ADMIN_TOKEN) =>
  h.admin.inject({
    method: 'GET',
    url: `/admin/orgs/${orgId}/campaigns/${code}/pool${query}`,
    headers: { authorization: `Bearer ${token}` },
  });

const T0 = Date.parse('2026-03-02T15:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

async function visit(t: Tenant, visitor: string, s: number) {
  h.clock.set(at(s));
  const res = await dni(h, t.key, { campaign_code: t.code, visitor_id: visitor });
  expect(res.statusCode).toBe(201);
  return json(res).tracking_number as string;
}

async function call(t: Tenant, to: string, from: string, s: number) {
  h.clock.set(at(s));
  return adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, { to, from, started_at: at(s) });
}

describe('pool health of a campaign with traffic', () => {
  it('counts sessions by outcome, calls by rule, held numbers per hour', async () => {
    const t = await createTenant(h, { numbers: 2, ttl: 300 });
    const n1 = await visit(t, 'v1', 0); // allocated, held to +300
    await visit(t, 'v1', 60); // sticky, held to +360
    const n2 = await visit(t, 'v2', 120); // allocated, held to +420
    expect(await visit(t, 'v3', 180)).toBe(n1); // exhausted: shares n1 (least recently assigned)

    expect((await call(t, n2, '+14155550101', 200)).attribution).toBe('session');
    expect((await call(t, n1, '+14155550102', 200)).ambiguous).toBe(true);
    expect((await call(t, n2, '+14155550103', 600)).attribution).toBe('recent_holder');
    expect((await call(t, n2, '+14155550101', 3 * 3600)).attribution).toBe('repeat_caller');
    expect((await call(t, n2, '+14155550104', 3 * 3600)).attribution).toBe('campaign');

    h.clock.set(at(4 * 3600));
    const body = json(await pool(t.orgId, t.code));
    expect(body).toMatchObject({
      campaign_code: t.code,
      window: { days: 30, until: at(4 * 3600) },
      numbers: 2,
      has_overflow_number: false,
      held_now: 0,
      peak_held: 2,
      sessions: { allocated: 2, sticky: 1, shared: 1, overflow: 0 },
      calls: {
        total: 5,
        by_rule: { holder: 2, grace: 1, repeat_caller: 1, campaign_only: 1 },
        on_shared_number: 1,
      },
      accuracy: { call_mix_source: 'assumed' },
      recommendation: { target: 0.99, basis: 'model', busiest_hour_new_sessions: 3 },
    });
    const hours = body.hourly as { hour: string; new_sessions: number; peak_held: number }[];
    expect(hours).toHaveLength(30 * 24 + 1);
    expect(hours.find((x) => x.hour === at(0))).toEqual({
      hour: at(0),
      new_sessions: 3,
      peak_held: 2,
    });
    expect(hours.find((x) => x.hour === at(3600))?.peak_held).toBe(0);
    // v1 held 360 s, v2 300 s, v3 300 s.
    expect(body.recommendation.mean_hold_seconds).toBe(320);
    expect(body.recommendation.size).toBeGreaterThanOrEqual(1);
    expect(body.accuracy.estimated).toBeGreaterThan(0);
    // What the model reads of the calls: the holds that attributed them, as they stood then.
    // n2's holder call at +200 came 80 s after v2's session opened (+120), the shared n1's at
    // +200 20 s after v3's (+180, the newest live holder); the grace call at +600 came 180 s
    // after v2's hold ended (+420).
    const [c] = await h.store.query<{ id: string }>(
      'select id from campaigns where org_id = $1 and code = $2',
      [t.orgId, t.code],
    );
    const o = await observePool(h.store.db, c!.id, new Date(at(-3600)), new Date(at(4 * 3600)));
    expect(o.liveCallDelaySeconds).toBe(50);
    expect(o.graceLateness).toEqual([180]);
    expect(body.rules_of_thumb.map((r: { source: string }) => r.source)).toEqual([
      'CallTrackingMetrics',
      'Nimbata',
      'Call Dynamics',
      'CallMatrix',
    ]);
  });

  it('counts a number held now, and a shorter window leaves older traffic out', async () => {
    const t = await createTenant(h, { numbers: 3, ttl: 300 });
    await visit(t, 'a', 0);
    h.clock.set(at(2 * 86_400));
    await visit(t, 'b', 2 * 86_400);
    const body = json(await pool(t.orgId, t.code, '?days=1&target=0.9'));
    expect(body).toMatchObject({
      window: { days: 1, since: at(86_400), until: at(2 * 86_400) },
      held_now: 1,
      sessions: { allocated: 1 }, // b only: a is older than the window
      recommendation: { target: 0.9 },
    });
  });
});

describe('calls on a shared number', () => {
  it("count by the call's own flag: a number shared only after the calls does not make them shared", async () => {
    const t = await createTenant(h, { numbers: 1, ttl: 300 });
    const n1 = await visit(t, 'v1', 0);
    // Two calls while v1 alone holds the number: neither is ambiguous.
    expect((await call(t, n1, '+14155550111', 30)).ambiguous).toBe(false);
    expect((await call(t, n1, '+14155550112', 40)).ambiguous).toBe(false);
    // Now the pool is exhausted and v2 shares n1: v1's session is flagged from here on.
    expect(await visit(t, 'v2', 60)).toBe(n1);
    // A call while both hold it is on a shared number.
    expect((await call(t, n1, '+14155550113', 90)).ambiguous).toBe(true);

    h.clock.set(at(3600));
    const body = json(await pool(t.orgId, t.code));
    expect(body.sessions).toMatchObject({ allocated: 1, shared: 1 });
    expect(body.calls).toMatchObject({ total: 3, on_shared_number: 1 });
  });
});

describe('a target no pool reaches', () => {
  it('answers target_unreachable with the ceiling, and the note quotes it unrounded', async () => {
    const t = await createTenant(h, { numbers: 2, ttl: 300 });
    await visit(t, 'v1', 0);
    h.clock.set(at(3600));
    const body = json(await pool(t.orgId, t.code, '?target=0.9999'));
    const rec = body.recommendation;
    expect(rec).toMatchObject({ target: 0.9999, size: null, basis: 'target_unreachable' });
    // Calls long after the visit (2 % of calls until the campaign has its own) keep it below.
    expect(rec.ceiling).toBeGreaterThan(0.999);
    expect(rec.ceiling).toBeLessThan(0.9999);
    expect(rec.note).toContain(`No pool reaches 0.9999`);
    expect(rec.note).toContain(`the best is about ${rec.ceiling}.`);
  });
});

describe('no traffic yet', () => {
  it('says so and gives the rule of thumb instead of a size', async () => {
    const t = await createTenant(h, { numbers: 4 });
    const body = json(await pool(t.orgId, t.code));
    expect(body).toMatchObject({
      numbers: 4,
      held_now: 0,
      peak_held: 0,
      sessions: { allocated: 0, sticky: 0, shared: 0, overflow: 0 },
      calls: { total: 0 },
      accuracy: { estimated: null },
      recommendation: { size: null, basis: 'no_traffic' },
      rules_of_thumb: [],
    });
    expect(body.recommendation.note).toContain('1 number per 20 expected daily visitors');
  });
});

describe('tenancy, auth and bad input', () => {
  it("another organization's campaign is 404 like a missing one", async () => {
    const t = await createTenant(h);
    const other = await createTenant(h);
    const theirs = await pool(other.orgId, t.code);
    const missing = await pool(t.orgId, 'zzz');
    for (const res of [theirs, missing]) {
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe('{"detail":"campaign_not_found"}');
    }
    expect((await pool('org_nope', t.code)).body).toBe('{"detail":"org_not_found"}');
  });

  it('401 without the admin token', async () => {
    const t = await createTenant(h);
    const res = await pool(t.orgId, t.code, '', 'wrong');
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('{"detail":"invalid_admin_token"}');
  });

  it('422 lists every bad query field and the bad code', async () => {
    const t = await createTenant(h);
    for (const [q, locs] of [
      ['?days=0&target=1', ['query.days', 'query.target']],
      ['?days=abc&target=-0.5', ['query.days', 'query.target']],
      ['?days=366', ['query.days']],
    ] as const) {
      const res = await pool(t.orgId, t.code, q);
      expect(res.statusCode).toBe(422);
      expect(json(res).detail.map((e: { loc: string[] }) => e.loc.join('.'))).toEqual(locs);
    }
    const long = await pool(t.orgId, 'abcd');
    expect(long.statusCode).toBe(422);
    expect(json(long).detail[0].loc).toEqual(['path', 'code']);
  });
});

describe('admin OpenAPI document', () => {
  it('describes the pool endpoint with its window and target', async () => {
    const doc = json(await h.admin.inject({ method: 'GET', url: '/admin/openapi.json' }));
    const op = doc.paths['/admin/orgs/{org_id}/campaigns/{code}/pool']?.get;
    expect(op?.summary).toMatch(/Pool health/);
    expect(op.parameters.map((p: { name: string }) => p.name).sort()).toEqual([
      'code',
      'days',
      'org_id',
      'target',
    ]);
  });
});

describe('Prometheus gauges', () => {
  it('give held, peak and recommended numbers per campaign', async () => {
    const t = await createTenant(h, { numbers: 3, ttl: 300 });
    await visit(t, 'x', 10 * 86_400);
    await visit(t, 'y', 10 * 86_400 + 60);
    const text = (
      await h.admin.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
    ).body;
    const series = (name: string) =>
      new RegExp(
        `^${name}\\{campaign_id="[^"]+",org_id="${t.orgId}",code="${t.code}"\\} (\\d+)$`,
        'm',
      ).exec(text)?.[1];
    expect(series('dni_pool_held_numbers')).toBe('2');
    expect(series('dni_pool_peak_held_numbers')).toBe('2');
    expect(Number(series('dni_pool_recommended_numbers'))).toBeGreaterThanOrEqual(1);
  });
});
