/**
 * Carrier results that arrive late or out of order (docs/routing.md, "Routing a call"): a Dial
 * action posted after the call's final status, and a call that ends between the two steps of a
 * Dial action. Through signed Twilio webhooks, on both stores.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { acceptDialResult, recordCallStatus } from '../../src/domain/carrier-inbound/inbound.js';
import { createTenant, json, type Tenant, useHarness } from '../helpers/harness.js';
import { admin, createBuyer, setRouting } from '../helpers/routing.js';
import { newSid, PUBLIC_BASE, TWILIO_TOKEN, twilioPost } from '../helpers/twilio-webhook.js';
import { callEnded, dialEnded, ring, stepOf } from '../helpers/voice.js';

const h = useHarness({ twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE } });

afterEach(() => {
  h.clock.set('2026-03-02T15:00:00Z');
});

const callDetail = async (t: Tenant, callSid: string) => {
  const [row] = await h.store.query<{ id: string }>(
    'select id from calls where carrier_call_sid = $1',
    [callSid],
  );
  return json(await admin(h, 'GET', `/admin/orgs/${t.orgId}/calls/${row!.id}`));
};

const buyerView = async (t: Tenant, buyerId: string) =>
  json(await admin(h, 'GET', `/admin/orgs/${t.orgId}/buyers/${buyerId}`));

/**
 * A campaign that offers its calls to `first`, then to `second` (one live call at most), and
 * a call ringing the first.
 */
async function ringingFirstOfTwo(firstCaps: Record<string, number> | null) {
  const t = await createTenant(h);
  const first = await createBuyer(h, t.orgId, firstCaps ? { caps: firstCaps } : {});
  const second = await createBuyer(h, t.orgId, { caps: { concurrency: 1 } });
  await setRouting(h, t.orgId, t.code, {
    targets: [
      { buyer_id: first.buyer_id, priority: 1 },
      { buyer_id: second.buyer_id, priority: 2 },
    ],
  });
  return { t, first, second, call: await ring(h, t.numbers[0]!) };
}

/** The first buyer's missed offer is the call's only one, and the second holds no place. */
async function expectOnlyFirstOffered(
  t: Tenant,
  callSid: string,
  first: { buyer_id: string },
  second: { buyer_id: string },
) {
  const detail = await callDetail(t, callSid);
  expect(detail.offers).toEqual([
    expect.objectContaining({ buyer_id: first.buyer_id, outcome: 'no_answer' }),
  ]);
  expect((await buyerView(t, second.buyer_id)).usage).toMatchObject({
    total: 0,
    concurrency: 0,
  });
}

describe('a Dial action after the call’s final status', () => {
  it('an answered leg still gives the call its buyer, billing and a counted place', async () => {
    const t = await createTenant(h);
    const buyer = await createBuyer(h, t.orgId, {
      payout: { amount: '25.00', min_duration_seconds: 60 },
      caps: { daily: 5, concurrency: 2 },
    });
    await setRouting(h, t.orgId, t.code, { targets: [{ buyer_id: buyer.buyer_id, priority: 1 }] });
    const call = await ring(h, t.numbers[0]!);
    expect(call.step.kind).toBe('dial');
    h.clock.advance(300);
    // The caller hung up during the conversation: Twilio posts the call's final status and
    // the Dial's action at once, and the status callback is handled first.
    expect((await callEnded(h, call.callSid, 'completed', 300)).statusCode).toBe(204);
    await dialEnded(h, call, call.step, 'completed', 290);
    const detail = await callDetail(t, call.callSid);
    expect(detail).toMatchObject({ buyer_id: buyer.buyer_id, billable: true, payout: '25.00' });
    expect(detail.offers).toEqual([
      expect.objectContaining({
        buyer_id: buyer.buyer_id,
        outcome: 'answered',
        duration_seconds: 290,
      }),
    ]);
    // The buyer took the call: it counts against its daily cap; the leg is over, so not live.
    expect((await buyerView(t, buyer.buyer_id)).usage).toMatchObject({
      daily: 1,
      total: 1,
      concurrency: 0,
    });
  });

  it('an unanswered leg reported late changes nothing: the offer stays canceled', async () => {
    const t = await createTenant(h);
    const buyer = await createBuyer(h, t.orgId, { caps: { daily: 5 } });
    await setRouting(h, t.orgId, t.code, { targets: [{ buyer_id: buyer.buyer_id, priority: 1 }] });
    const call = await ring(h, t.numbers[0]!);
    expect((await callEnded(h, call.callSid, 'completed', 20)).statusCode).toBe(204);
    expect(await dialEnded(h, call, call.step, 'no-answer')).toEqual({ kind: 'hangup' });
    const detail = await callDetail(t, call.callSid);
    expect(detail).toMatchObject({ buyer_id: null, billable: null, payout: null });
    expect(detail.offers).toEqual([expect.objectContaining({ outcome: 'canceled' })]);
    expect((await buyerView(t, buyer.buyer_id)).usage).toMatchObject({
      daily: 0,
      total: 0,
      concurrency: 0,
    });
  });
});

describe('the call ends between the two steps of a Dial action', () => {
  it('offers no next buyer: no offer is left live for a call that is over', async () => {
    const { t, first, second, call } = await ringingFirstOfTwo({ concurrency: 1 });
    if (call.step.kind !== 'dial') throw new Error('not routed');
    const offerId = new URL(call.step.action!).searchParams.get('offer')!;
    const ctx = { carrier: 'twilio', requestId: 'req_dial', now: new Date(h.clock.now()) };
    const repos = h.deps.repos;
    // The caller hangs up as the first buyer's ring times out: Twilio's final status is
    // handled after the Dial action ended the offer and before it offers the next buyer.
    let transactions = 0;
    const interleaved = Object.create(repos) as typeof repos;
    interleaved.transaction = async (fn) => {
      transactions += 1;
      if (transactions === 2) {
        await recordCallStatus(
          repos,
          { ...ctx, requestId: 'req_status', random: Math.random },
          {
            callSid: call.callSid,
            status: 'completed',
            durationSeconds: 20,
          },
        );
      }
      return repos.transaction(fn);
    };
    const outcome = await acceptDialResult(
      interleaved,
      { ...ctx, random: Math.random },
      { callSid: call.callSid, offerId, dialCallStatus: 'no-answer', dialCallDuration: null },
    );
    expect(transactions).toBe(2);
    expect(outcome).toMatchObject({ kind: 'routed', answer: { kind: 'hangup' } });
    // The second buyer holds no place for a call nobody will ring it for.
    await expectOnlyFirstOffered(t, call.callSid, first, second);
  });
});

describe('a Dial action for a call whose caller has left', () => {
  it('offers no next buyer when Twilio says the call is over (CallStatus completed)', async () => {
    const { t, first, second, call } = await ringingFirstOfTwo(null);
    if (call.step.kind !== 'dial' || !call.step.path) throw new Error('not routed');
    // The caller hung up while the first buyer rang: Twilio's action request carries the
    // Dial's result and the call's own status, which is final.
    const res = await twilioPost(h, call.step.path, {
      AccountSid: 'AC0123456789abcdef0123456789abcdef',
      CallSid: call.callSid,
      CallStatus: 'completed',
      DialCallSid: newSid('CA'),
      DialCallStatus: 'no-answer',
      DialCallDuration: '0',
      From: call.from,
    });
    expect(res.statusCode).toBe(200);
    expect(stepOf(res.body)).toEqual({ kind: 'hangup' });
    await expectOnlyFirstOffered(t, call.callSid, first, second);
  });
});
