import { beforeEach, describe, expect, it } from 'vitest';
import { SimulatedCarrier } from '../../src/domain/dispatch/carriers/simulated.js';
import { claimJobs, recordOutcome } from '../../src/store/repos/dispatch.js';
import { attemptRows, ScriptedCarrier, touchRow, worker } from '../helpers/dispatch.js';
import { adminCall, json, useHarness } from '../helpers/harness.js';
import {
  adminInject,
  freshContact,
  grant,
  outboundTenant,
  touch,
  WEEKDAY_MORNING_ET,
} from '../helpers/outbound.js';
import { itConcurrently } from '../helpers/store.js';

const h = useHarness({
  privateDatabase: "the dispatch worker leases every organization's queued touches",
});
beforeEach(() => h.clock.set(WEEKDAY_MORNING_ET));

async function queued(n = 1): Promise<{ ids: string[]; orgId: string }> {
  const t = await outboundTenant(h, { config: { caller_id: '+12125550100' } });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const to = i === 0 ? t.contact : freshContact();
    if (i > 0) await grant(h, t.orgId, to);
    const res = await touch(h, t.key, t.code, {
      to_e164: to,
      channel: 'sms',
      consent_basis: 'pewc',
    });
    expect(res.statusCode).toBe(202);
    ids.push(json(res).touch_id);
  }
  return { ids, orgId: t.orgId };
}
const retry = { outcome: 'failed', retryable: true, error: 'carrier busy' } as const;

describe('simulated carrier', () => {
  it('delivers a queued touch once and records the attempt, the message and the final state', async () => {
    const { ids, orgId } = await queued();
    const w = worker(h, new SimulatedCarrier(h.deps.repos, h.clock));
    expect(await w.tick()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await w.tick()).toMatchObject({ claimed: 0 });
    const row = await touchRow(h, ids[0]!);
    expect(row).toMatchObject({
      status: 'queued',
      dispatch_status: 'delivered',
      attempts: 1,
      carrier: 'simulated',
    });
    const [msg] = await h.store.query<Record<string, unknown>>(
      'select * from simulated_carrier_messages where touch_id = $1',
      [ids[0]],
    );
    expect(row?.carrier_ids).toEqual([msg?.id]);
    expect(msg).toMatchObject({ channel: 'sms', from_e164: '+12125550100', requests: 1 });
    expect(await attemptRows(h, ids[0]!)).toEqual([
      { attempt: 1, outcome: 'accepted', carrier_id: msg?.id },
    ]);
    const view = await adminCall(h, 'GET', `/admin/orgs/${orgId}/touches/${ids[0]}`);
    expect(view.dispatch).toMatchObject({
      status: 'delivered',
      attempts: 1,
      carrier_ids: [msg?.id],
    });
    expect(view.dispatch.history).toHaveLength(1);
    const other = await outboundTenant(h);
    const hidden = await adminInject(h, 'GET', `/admin/orgs/${other.orgId}/touches/${ids[0]}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).toBe('{"detail":"touch_not_found"}');
  });
});

describe('retries', () => {
  it('retries with exponential backoff on the injected clock, then delivers', async () => {
    const { ids } = await queued();
    const carrier = new ScriptedCarrier((n) =>
      n <= 2 ? retry : { outcome: 'accepted', carrierId: 'c-3' },
    );
    const w = worker(h, carrier);
    expect(await w.tick()).toMatchObject({ claimed: 1, retried: 1 });
    h.clock.advance(4.999);
    expect(await w.tick()).toMatchObject({ claimed: 0 });
    h.clock.advance(0.001); // 5 s after the first attempt
    expect(await w.tick()).toMatchObject({ claimed: 1, retried: 1 });
    h.clock.advance(9.999);
    expect(await w.tick()).toMatchObject({ claimed: 0 });
    h.clock.advance(0.001); // 10 s after the second
    expect(await w.tick()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(carrier.calls.map((c) => c.options)).toEqual([
      { idempotencyKey: ids[0], attempt: 1 },
      { idempotencyKey: ids[0], attempt: 2 },
      { idempotencyKey: ids[0], attempt: 3 },
    ]);
    expect(await touchRow(h, ids[0]!)).toMatchObject({
      dispatch_status: 'delivered',
      attempts: 3,
      carrier_ids: ['c-3'],
    });
    expect((await attemptRows(h, ids[0]!)).map((a) => a.outcome)).toEqual([
      'retry',
      'retry',
      'accepted',
    ]);
  });

  it('gives up after the last attempt: final state failed', async () => {
    const { ids } = await queued();
    const w = worker(h, new ScriptedCarrier(() => retry), { maxAttempts: 3 });
    for (const wait of [0, 5, 10]) {
      h.clock.advance(wait);
      expect((await w.tick()).claimed).toBe(1);
    }
    const row = await touchRow(h, ids[0]!);
    expect(row).toMatchObject({ dispatch_status: 'failed', attempts: 3 });
    expect(row?.last_error).toBe('carrier busy (gave up after 3 attempts)');
    h.clock.advance(3600);
    expect((await w.tick()).claimed).toBe(0);
  });

  it('fails at once on a permanent refusal', async () => {
    const { ids } = await queued();
    const w = worker(
      h,
      new ScriptedCarrier(() => ({ outcome: 'failed', retryable: false, error: 'invalid To' })),
    );
    expect(await w.tick()).toMatchObject({ failed: 1 });
    expect(await touchRow(h, ids[0]!)).toMatchObject({
      dispatch_status: 'failed',
      last_error: 'invalid To',
    });
  });

  it('never repeats an unknown outcome on a carrier without idempotency keys', async () => {
    const { ids } = await queued(2);
    const timeout = { outcome: 'unknown', error: 'timeout' } as const;
    const plain = new ScriptedCarrier(() => timeout, false);
    expect(await worker(h, plain).tick()).toMatchObject({ claimed: 2, unknown: 2 });
    expect(await touchRow(h, ids[0]!)).toMatchObject({ dispatch_status: 'unknown', attempts: 1 });
    const { ids: more } = await queued();
    const keyed = new ScriptedCarrier(
      (n) => (n === 1 ? timeout : { outcome: 'accepted', carrierId: 'k' }),
      true,
    );
    const w = worker(h, keyed);
    expect(await w.tick()).toMatchObject({ retried: 1 });
    h.clock.advance(5);
    expect(await w.tick()).toMatchObject({ delivered: 1 });
    expect(await touchRow(h, more[0]!)).toMatchObject({
      dispatch_status: 'delivered',
      attempts: 2,
    });
  });
});

describe('leases', () => {
  it('hands a job whose worker died to another after the visibility timeout, without a second message', async () => {
    const { ids } = await queued();
    const simulated = new SimulatedCarrier(h.deps.repos, h.clock);
    // Worker A claims and sends, then dies before recording the outcome.
    const [job] = await claimJobs(h.store.db, {
      nowMs: h.clock.now(),
      leaseMs: 30_000,
      limit: 10,
      worker: 'A',
      carrier: 'simulated',
    });
    await simulated.send(job!.payload, { idempotencyKey: job!.touchId, attempt: 1 });
    const b = worker(h, simulated, { leaseMs: 30_000 });
    expect((await b.tick()).claimed).toBe(0);
    h.clock.advance(30);
    expect(await b.tick()).toMatchObject({ claimed: 1, delivered: 1 });
    const msgs = await h.store.query<{ requests: number }>(
      'select requests from simulated_carrier_messages where touch_id = $1',
      [ids[0]],
    );
    expect(msgs).toEqual([{ requests: 2 }]);
    expect((await attemptRows(h, ids[0]!)).map((a) => a.outcome)).toEqual(['unknown', 'accepted']);
  });

  it('does not resend after a lost worker when the carrier cannot dedupe', async () => {
    const { ids } = await queued();
    await claimJobs(h.store.db, {
      nowMs: h.clock.now(),
      leaseMs: 30_000,
      limit: 10,
      worker: 'A',
      carrier: 'scripted',
    });
    h.clock.advance(30);
    const carrier = new ScriptedCarrier(() => ({ outcome: 'accepted', carrierId: 'x' }), false);
    expect(await worker(h, carrier).tick()).toMatchObject({ claimed: 1, unknown: 1 });
    expect(carrier.calls).toHaveLength(0);
    expect(await touchRow(h, ids[0]!)).toMatchObject({ dispatch_status: 'unknown' });
    expect((await attemptRows(h, ids[0]!)).map((a) => a.outcome)).toEqual(['unknown', 'skipped']);
  });

  it('fences a worker that overran its lease: its late outcome changes nothing', async () => {
    const { ids } = await queued();
    const [job] = await claimJobs(h.store.db, {
      nowMs: h.clock.now(),
      leaseMs: 30_000,
      limit: 10,
      worker: 'slow',
      carrier: 'scripted',
    });
    h.clock.advance(30);
    const fast = new ScriptedCarrier(() => ({ outcome: 'accepted', carrierId: 'fast' }), true);
    expect(await worker(h, fast).tick()).toMatchObject({ delivered: 1 });
    const late = await recordOutcome(
      h.store.db,
      job!,
      'slow',
      'scripted',
      {
        attempt: 'failed',
        carrierId: null,
        error: 'late',
        next: { state: 'final', touch: 'failed' },
      },
      h.clock.now(),
    );
    expect(late).toBe(false);
    expect(await touchRow(h, ids[0]!)).toMatchObject({
      dispatch_status: 'delivered',
      carrier_ids: ['fast'],
    });
  });

  itConcurrently(
    'lets several workers drain one queue with each touch sent exactly once',
    async () => {
      const { ids } = await queued(30);
      const simulated = new SimulatedCarrier(h.deps.repos, h.clock);
      const workers = [1, 2, 3].map(() => worker(h, simulated, { batchSize: 4 }));
      for (let round = 0; round < 20; round++) {
        const reports = await Promise.all(workers.map((w) => w.tick()));
        if (reports.every((r) => r.claimed === 0)) break;
      }
      const rows = await h.store.query<{ touch_id: string; requests: number }>(
        'select touch_id, requests from simulated_carrier_messages where touch_id = any($1::text[])',
        [ids],
      );
      expect(rows.map((r) => r.touch_id).sort()).toEqual([...ids].sort());
      expect(rows.every((r) => r.requests === 1)).toBe(true);
      const delivered = await h.store.query(
        "select 1 from outbound_touches where id = any($1::text[]) and dispatch_status = 'delivered' and attempts = 1",
        [ids],
      );
      expect(delivered).toHaveLength(30);
    },
  );
});
