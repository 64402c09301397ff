import { describe, expect, it } from 'vitest';
import type { RetentionConfig } from '../../src/config.js';
import { SimulatedCarrier } from '../../src/domain/dispatch/carriers/simulated.js';
import { worker } from '../helpers/dispatch.js';
import {
  adminCall,
  createTenant,
  dni,
  type Harness,
  json,
  type Tenant,
  useHarness,
} from '../helpers/harness.js';
import { freshContact, grant, touch, WEEKDAY_MORNING_ET } from '../helpers/outbound.js';
import { countRows, testRetention } from '../helpers/retention.js';

const h = useHarness({ privateDatabase: "the retention job prunes every organization's rows" });
const DAY_S = 86_400;

const retention = (o: Partial<RetentionConfig> = {}) => testRetention(h, o);
const count = (table: string, where?: string, params?: unknown[]) =>
  countRows(h, table, where, params);

async function session(t: Tenant, visitor: string): Promise<{ id: string; number: string }> {
  const res = await dni(h, t.key, { campaign_code: t.code, visitor_id: visitor });
  expect(res.statusCode).toBe(201);
  const [row] = await h.store.query<{ id: string }>(
    'select id from dni_sessions where campaign_id = (select id from campaigns where org_id = $1 and code = $2) and visitor_id = $3',
    [t.orgId, t.code, visitor],
  );
  return { id: row!.id, number: json(res).tracking_number };
}

async function call(t: Tenant, to: string) {
  return adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, { to, from: '+13125550177' });
}

/** A queued touch under an idempotency key, then handed to the simulated carrier. */
async function deliveredTouch(h: Harness, t: Tenant, key: string): Promise<string> {
  const to = freshContact();
  await grant(h, t.orgId, to);
  const res = await touch(h, t.key, t.code, {
    to_e164: to,
    channel: 'sms',
    consent_basis: 'pewc',
    idempotency_key: key,
  });
  expect(res.statusCode).toBe(202);
  await worker(h, new SimulatedCarrier(h.deps.repos, h.clock)).tick();
  return json(res).touch_id;
}

describe('what goes and what stays', () => {
  it('deletes rows past their window; keeps young ones, referenced sessions and the audit log', async () => {
    h.clock.set(WEEKDAY_MORNING_ET);
    const t = await createTenant(h, { numbers: 3 });
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, {
      config: { caller_id: '+12125550100' },
    });
    const called = await session(t, 'kept-by-a-call');
    const idle = await session(t, 'idle-visitor');
    const answered = await call(t, called.number);
    expect(answered.dni_session_id).toBe(called.id);
    const touchId = await deliveredTouch(h, t, 'retention-key');
    const job = { where: 'touch_id = $1', params: [touchId] };
    expect(await count('dispatch_jobs', `${job.where} and state = 'done'`, job.params)).toBe(1);
    const audit = await count('audit_log');
    const r = retention();

    h.clock.advance(DAY_S - 60); // idempotency records live 24 h
    await r.runOnce();
    expect(await count('outbound_idempotency', "key = 'retention-key'")).toBe(1);
    h.clock.advance(120);
    expect((await r.runOnce())!.outbound_idempotency).toBeGreaterThanOrEqual(1);
    expect(await count('outbound_idempotency', "key = 'retention-key'")).toBe(0);

    h.clock.advance(28 * DAY_S); // the job finished 29 days ago
    await r.runOnce();
    expect(await count('dispatch_jobs', job.where, job.params)).toBe(1);
    h.clock.advance(DAY_S);
    await r.runOnce();
    expect(await count('dispatch_jobs', job.where, job.params)).toBe(0);
    expect(await count('simulated_carrier_messages', 'touch_id = $1', [touchId])).toBe(0);
    // The touch itself is a record of what was decided: kept.
    expect(await count('outbound_touches', 'id = $1', [touchId])).toBe(1);

    h.clock.advance(59 * DAY_S); // sessions expired under 90 days ago
    const young = await session(t, 'young-visitor');
    await r.runOnce();
    expect(await count('dni_sessions', 'id = $1', [idle.id])).toBe(1);
    h.clock.advance(2 * DAY_S);
    await r.runOnce();
    expect(await count('dni_sessions', 'id = $1', [idle.id])).toBe(0);
    expect(await count('dni_sessions', 'id = $1', [called.id])).toBe(1);
    expect(await count('dni_sessions', 'id = $1', [young.id])).toBe(1);
    expect(await count('calls', 'id = $1', [answered.call_id])).toBe(1);
    expect(await count('audit_log')).toBeGreaterThanOrEqual(audit);
    await r.stop();
  });
});

describe('a simulated month', () => {
  it('keeps table sizes flat', async () => {
    h.clock.set('2026-04-01T15:00:00Z');
    const t = await createTenant(h, { numbers: 3 });
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, {
      config: { caller_id: '+12125550100' },
    });
    const r = retention({ sessionDays: 3, dispatchJobDays: 2 });
    const mine = 'org_id = $1';
    const sizes: { sessions: number; keys: number; jobs: number }[] = [];
    for (let day = 0; day < 32; day++) {
      h.clock.set(new Date(Date.parse('2026-04-01T15:00:00Z') + day * DAY_S * 1000).toISOString());
      for (let v = 0; v < 6; v++) await session(t, `d${day}-v${v}`);
      const weekday = ![0, 6].includes(new Date(h.clock.now()).getUTCDay());
      if (weekday) await deliveredTouch(h, t, `month-${day}`);
      await r.runOnce();
      sizes.push({
        sessions: await count('dni_sessions', mine, [t.orgId]),
        keys: await count('outbound_idempotency', mine, [t.orgId]),
        jobs: await count('dispatch_jobs', mine, [t.orgId]),
      });
    }
    // Sessions: today's, and those expired less than 3 days ago (today + 3 earlier days).
    for (const s of sizes.slice(5)) {
      expect(s.sessions).toBeLessThanOrEqual(4 * 6);
      expect(s.keys).toBeLessThanOrEqual(1);
      expect(s.jobs).toBeLessThanOrEqual(3);
    }
    expect(sizes.at(-1)!.sessions).toBe(sizes[10]!.sessions);
    await r.stop();
  });
});

describe('one process at a time', () => {
  it('lets the lease holder work, hands over when it stops or its lease expires', async () => {
    h.clock.set('2026-06-01T12:00:00Z');
    const other = await h.store.reopen();
    try {
      const a = retention();
      const b = testRetention(h, { batchSize: 100, maxBatches: 10 }, other);
      expect(await a.runOnce()).not.toBeNull();
      expect(await b.runOnce()).toBeNull();
      h.clock.advance(60);
      expect(await a.runOnce()).not.toBeNull(); // renews
      h.clock.advance(181); // a's lease (3 intervals) ran out: a crashed leader
      expect(await b.runOnce()).not.toBeNull();
      expect(await a.runOnce()).toBeNull();
      await b.stop(); // a graceful stop hands over at once
      expect(await a.runOnce()).not.toBeNull();
      await a.stop();
    } finally {
      await other.close();
    }
  });
});

describe('report deltas', () => {
  it('folds them and gives their space back, so reports do not read a table that only grows', async () => {
    h.clock.set('2026-05-10T15:00:00Z');
    const t = await createTenant(h, { numbers: 3 });
    const r = retention();
    const size = async () => {
      const [row] = await h.store.query<{ n: string | number }>(
        "select pg_relation_size('report_traffic_deltas') as n",
        [],
      );
      return Number(row!.n);
    };
    for (let v = 0; v < 60; v++) await session(t, `deltas-${v}`);
    expect(await size()).toBeGreaterThan(0);
    const report = await r.runOnce();
    expect(report!.report_deltas_folded).toBeGreaterThan(0);
    expect(await count('report_traffic_deltas')).toBe(0);
    // Emptied whole, the file is truncated (a DELETE alone leaves every page).
    expect(await size()).toBe(0);
    await r.stop();
  });
});
