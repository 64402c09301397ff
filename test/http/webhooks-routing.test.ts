/**
 * call.routed and call.billable (contract §7, §11; docs/webhooks.md): routed calls through
 * signed Twilio webhooks, the events delivered by the worker to a real listener, each body
 * checked against its published schema.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, createTenant, useHarness } from '../helpers/harness.js';
import { createBuyer, setRouting } from '../helpers/routing.js';
import { PUBLIC_BASE, TWILIO_TOKEN } from '../helpers/twilio-webhook.js';
import { callEnded, dialEnded, ring } from '../helpers/voice.js';
import {
  allowPrivateTargets,
  checkEventSchema,
  createWebhook,
  Receiver,
  webhookWorker,
} from '../helpers/webhooks.js';

const h = useHarness({
  twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE },
  privateDatabase: "the webhook worker delivers every organization's pending events",
});
const receivers: Receiver[] = [];
beforeAll(() => {
  allowPrivateTargets(h);
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

type Body = { type: string; data: Record<string, unknown> };

async function delivered(r: Receiver): Promise<Body[]> {
  const { worker } = webhookWorker(h);
  while ((await worker.tick()) > 0) {}
  return r.received.map((x) => {
    const body = JSON.parse(x.body);
    checkEventSchema(body);
    return body as Body;
  });
}

describe('call.routed and call.billable', () => {
  it('one call.routed per ended offer; call.billable once the payout is fixed, billable', async () => {
    h.clock.ms = Date.now();
    const t = await createTenant(h);
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, { currency: 'EUR' });
    const a = await createBuyer(h, t.orgId, { payout: { amount: '25.00' } });
    const b = await createBuyer(h, t.orgId, {
      payout: { amount: '12.50', min_duration_seconds: 60 },
    });
    await setRouting(h, t.orgId, t.code, {
      targets: [
        { buyer_id: a.buyer_id, priority: 1 },
        { buyer_id: b.buyer_id, priority: 2 },
      ],
    });
    const r = await new Receiver().start();
    receivers.push(r);
    await createWebhook(h, t.orgId, r.url, ['call.routed', 'call.billable']);

    // Busy at a, answered by b for 90 s: billable at b's payout.
    const call = await ring(h, t.numbers[0]!, '+12125550142');
    const next = await dialEnded(h, call, call.step, 'busy');
    expect(next.kind).toBe('dial');
    await dialEnded(h, call, next, 'completed', 90);
    const [row] = await h.store.query<{ id: string }>(
      'select id from calls where carrier_call_sid = $1',
      [call.callSid],
    );
    const bodies = await delivered(r);
    expect(bodies.map((x) => [x.type, x.data.buyer_id, x.data.outcome ?? null])).toEqual([
      ['call.routed', a.buyer_id, 'busy'],
      ['call.routed', b.buyer_id, 'answered'],
      ['call.billable', b.buyer_id, null],
    ]);
    expect(bodies[0]!.data).toMatchObject({
      call_id: row!.id,
      campaign_code: t.code,
      seq: 1,
      duration_seconds: null,
    });
    expect(bodies[1]!.data).toMatchObject({ seq: 2, duration_seconds: 90 });
    expect(bodies[2]!.data).toMatchObject({ call_id: row!.id, payout: '12.50', currency: 'EUR' });

    // Answered but too short for b's minimum: call.routed only, no call.billable.
    h.clock.advance(60);
    const short = await ring(h, t.numbers[0]!, '+12125550143');
    const step = await dialEnded(h, short, short.step, 'no-answer');
    await dialEnded(h, short, step, 'completed', 10);
    const more = (await delivered(r)).slice(3);
    expect(more.map((x) => [x.type, x.data.outcome])).toEqual([
      ['call.routed', 'no_answer'],
      ['call.routed', 'answered'],
    ]);
  });

  it('an organization subscribed to nothing gets no routing events; another org sees none', async () => {
    h.clock.ms = Date.now();
    const t = await createTenant(h);
    const other = await createTenant(h);
    const r = await new Receiver().start();
    receivers.push(r);
    await createWebhook(h, other.orgId, r.url, ['*']);
    const a = await createBuyer(h, t.orgId, { payout: { amount: '5.00' } });
    await setRouting(h, t.orgId, t.code, { targets: [{ buyer_id: a.buyer_id, priority: 1 }] });
    const call = await ring(h, t.numbers[0]!, '+12125550144');
    await dialEnded(h, call, call.step, 'completed', 30);
    expect(await delivered(r)).toEqual([]);
  });

  it('each endpoint gets what it takes: every event (*), or call.completed alone', async () => {
    h.clock.ms = Date.now();
    const t = await createTenant(h);
    const every = await new Receiver().start();
    const completed = await new Receiver().start();
    receivers.push(every, completed);
    await createWebhook(h, t.orgId, every.url, ['*']);
    await createWebhook(h, t.orgId, completed.url, ['call.completed']);
    const a = await createBuyer(h, t.orgId, { payout: { amount: '5.00' } });
    await setRouting(h, t.orgId, t.code, { targets: [{ buyer_id: a.buyer_id, priority: 1 }] });
    const call = await ring(h, t.numbers[0]!, '+12125550145');
    await dialEnded(h, call, call.step, 'completed', 30);
    expect((await callEnded(h, call.callSid, 'completed', 35)).statusCode).toBe(204);
    const types = (bodies: Body[]) => bodies.map((x) => x.type);
    // One worker run delivers to both receivers.
    expect(types(await delivered(every))).toEqual([
      'call.received',
      'call.routed',
      'call.billable',
      'call.completed',
    ]);
    expect(types(await delivered(completed))).toEqual(['call.completed']);
  });
});
