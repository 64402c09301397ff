/**
 * Routing through signed Twilio webhooks (contract §11, docs/routing.md): which buyer is rung,
 * what happens when one does not answer, and the fallback. On both stores.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { adminCall, createTenant, json, type Tenant, useHarness } from '../helpers/harness.js';
import { auditRows } from '../helpers/reports.js';
import { admin, createBuyer, seeded, setRouting } from '../helpers/routing.js';
import { PUBLIC_BASE, TWILIO_TOKEN } from '../helpers/twilio-webhook.js';
import { callEnded, dialEnded, NY_CALLER, ring, type Step } from '../helpers/voice.js';

const h = useHarness({ twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE } });
const CAMPAIGN_FORWARD = '+13125550199';

afterEach(() => {
  h.deps.random = undefined;
  h.clock.set('2026-03-02T15:00:00Z');
});

async function routedTenant(): Promise<Tenant> {
  const t = await createTenant(h);
  await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, {
    forward_to: CAMPAIGN_FORWARD,
  });
  return t;
}

const callRow = async (callSid: string) =>
  (
    await h.store.query<Record<string, unknown>>(
      'select id, buyer_id, billable, payout, fallback, fallback_reason from calls where carrier_call_sid = $1',
      [callSid],
    )
  )[0]!;

const callDetail = async (t: Tenant, callSid: string) => {
  const row = await callRow(callSid);
  return json(await admin(h, 'GET', `/admin/orgs/${t.orgId}/calls/${row.id}`));
};

const dialed = (step: Step) => (step.kind === 'dial' ? step.number : step.kind);

describe('choosing the buyer', () => {
  it('rings the buyer of the lowest priority, with the Dial action and ring timeout', async () => {
    const t = await routedTenant();
    const first = await createBuyer(h, t.orgId, { forward_to: '+13125550101' });
    const second = await createBuyer(h, t.orgId, { forward_to: '+13125550102' });
    await setRouting(h, t.orgId, t.code, {
      targets: [
        { buyer_id: second.buyer_id, priority: 2 },
        { buyer_id: first.buyer_id, priority: 1 },
      ],
      ring_timeout_seconds: 15,
    });
    const call = await ring(h, t.numbers[0]!);
    expect(call.step).toMatchObject({ kind: 'dial', number: '+13125550101', timeout: '15' });
    expect(call.step.kind === 'dial' && call.step.action).toMatch(
      /^https:\/\/calls\.example\.com\/carrier\/twilio\/dial\?offer=ofr_[0-9a-f]{32}1$/,
    );
    const detail = await callDetail(t, call.callSid);
    expect(detail.offers).toEqual([
      {
        buyer_id: first.buyer_id,
        offered_at: '2026-03-02T15:00:00.000Z',
        outcome: null,
        duration_seconds: null,
      },
    ]);
    expect(detail).toMatchObject({ buyer_id: null, billable: null, payout: null });
  });

  it('splits a priority by weight (a seeded draw, through the webhook)', async () => {
    const t = await routedTenant();
    const heavy = await createBuyer(h, t.orgId, { forward_to: '+13125550111' });
    const light = await createBuyer(h, t.orgId, { forward_to: '+13125550112' });
    await setRouting(h, t.orgId, t.code, {
      targets: [
        { buyer_id: heavy.buyer_id, priority: 1, weight: 3 },
        { buyer_id: light.buyer_id, priority: 1, weight: 1 },
      ],
    });
    h.deps.random = seeded(38);
    const counts: Record<string, number> = {};
    for (let i = 0; i < 40; i++) {
      const call = await ring(h, t.numbers[0]!);
      counts[dialed(call.step)] = (counts[dialed(call.step)] ?? 0) + 1;
      // The leg ends unanswered and the caller hangs up: nothing stays live.
      await callEnded(h, call.callSid, 'completed');
    }
    expect(counts['+13125550111']! + counts['+13125550112']!).toBe(40);
    // 3:1 is 30:10; this seeded draw of 40 lands within 5 of it, where an even split (20:20)
    // would not (the split itself is measured over 2,000 draws in test/unit/routing).
    expect(Math.abs(counts['+13125550111']! - 30)).toBeLessThanOrEqual(5);
  }, 120_000);

  it('skips a buyer whose schedule is closed now in its zone', async () => {
    const t = await routedTenant();
    // 15:00 UTC on Monday 2 March 2026 is 09:00 in Chicago.
    const closed = await createBuyer(h, t.orgId, {
      forward_to: '+13125550121',
      time_zone: 'America/Chicago',
      schedule: { mon: [['09:30', '17:00']] },
    });
    const open = await createBuyer(h, t.orgId, {
      forward_to: '+13125550122',
      time_zone: 'America/Chicago',
      schedule: { mon: [['09:00', '09:01']] },
    });
    await setRouting(h, t.orgId, t.code, {
      targets: [
        { buyer_id: closed.buyer_id, priority: 1 },
        { buyer_id: open.buyer_id, priority: 2 },
      ],
    });
    expect(dialed((await ring(h, t.numbers[0]!)).step)).toBe('+13125550122');
    h.clock.set('2026-03-02T15:31:00Z');
    expect(dialed((await ring(h, t.numbers[0]!)).step)).toBe('+13125550121');
  });

  it("takes the caller's state as the outbound gate reads it; an unknown state only to buyers without states", async () => {
    const t = await routedTenant();
    const california = await createBuyer(h, t.orgId, {
      forward_to: '+13125550131',
      states: ['CA'],
    });
    const newYork = await createBuyer(h, t.orgId, {
      forward_to: '+13125550132',
      states: ['NY', 'NJ'],
    });
    const anyone = await createBuyer(h, t.orgId, { forward_to: '+13125550133' });
    await setRouting(h, t.orgId, t.code, {
      targets: [
        { buyer_id: california.buyer_id, priority: 1 },
        { buyer_id: newYork.buyer_id, priority: 2 },
        { buyer_id: anyone.buyer_id, priority: 3 },
      ],
    });
    expect(dialed((await ring(h, t.numbers[0]!, NY_CALLER)).step)).toBe('+13125550132');
    expect(dialed((await ring(h, t.numbers[0]!, '+14155550100')).step)).toBe('+13125550131');
    expect(dialed((await ring(h, t.numbers[0]!, '+18005550100')).step)).toBe('+13125550133');
  });

  it('skips a paused buyer, and offers it again once active', async () => {
    const t = await routedTenant();
    const paused = await createBuyer(h, t.orgId, { forward_to: '+13125550141', status: 'paused' });
    const active = await createBuyer(h, t.orgId, { forward_to: '+13125550142' });
    await setRouting(h, t.orgId, t.code, {
      targets: [
        { buyer_id: paused.buyer_id, priority: 1 },
        { buyer_id: active.buyer_id, priority: 2 },
      ],
    });
    expect(dialed((await ring(h, t.numbers[0]!)).step)).toBe('+13125550142');
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/buyers/${paused.buyer_id}`, {
      status: 'active',
    });
    expect(dialed((await ring(h, t.numbers[0]!)).step)).toBe('+13125550141');
  });

  it('a campaign without routing forwards to its forward_to as before', async () => {
    const t = await routedTenant();
    const call = await ring(h, t.numbers[0]!);
    expect(call.step).toEqual({
      kind: 'dial',
      number: CAMPAIGN_FORWARD,
      action: null,
      timeout: null,
      path: null,
    });
    expect((await callDetail(t, call.callSid)).offers).toEqual([]);
  });

  it('a retried voice webhook rings the same offer again', async () => {
    const t = await routedTenant();
    const b = await createBuyer(h, t.orgId, { forward_to: '+13125550151' });
    await setRouting(h, t.orgId, t.code, { targets: [{ buyer_id: b.buyer_id, priority: 1 }] });
    const { voiceParams } = await import('../helpers/voice.js');
    const { twilioPost } = await import('../helpers/twilio-webhook.js');
    const params = voiceParams(t.numbers[0]!);
    const a = await twilioPost(h, '/carrier/twilio/voice', params);
    const again = await twilioPost(h, '/carrier/twilio/voice', params);
    expect(again.body).toBe(a.body);
    expect((await callDetail(t, params.CallSid)).offers).toHaveLength(1);
  });
});

describe('when a buyer does not answer', () => {
  async function chain(n: number, more: Record<string, unknown> = {}) {
    const t = await routedTenant();
    const buyers = [];
    for (let i = 0; i < n; i++) {
      buyers.push(await createBuyer(h, t.orgId, { forward_to: `+1312555016${i}`, name: `B${i}` }));
    }
    await setRouting(h, t.orgId, t.code, {
      targets: buyers.map((b, i) => ({ buyer_id: b.buyer_id, priority: i + 1 })),
      ...more,
    });
    return { t, buyers };
  }

  it('busy, then no answer: the next buyers are offered, then one answers', async () => {
    const { t, buyers } = await chain(3);
    const call = await ring(h, t.numbers[0]!);
    expect(dialed(call.step)).toBe('+13125550160');
    h.clock.advance(5);
    const second = await dialEnded(h, call, call.step, 'busy');
    expect(dialed(second)).toBe('+13125550161');
    h.clock.advance(20);
    const third = await dialEnded(h, call, second, 'no-answer');
    expect(dialed(third)).toBe('+13125550162');
    h.clock.advance(100);
    expect(await dialEnded(h, call, third, 'completed', 95)).toEqual({ kind: 'hangup' });
    const detail = await callDetail(t, call.callSid);
    expect(detail.offers).toEqual([
      {
        buyer_id: buyers[0].buyer_id,
        offered_at: '2026-03-02T15:00:00.000Z',
        outcome: 'busy',
        duration_seconds: null,
      },
      {
        buyer_id: buyers[1].buyer_id,
        offered_at: '2026-03-02T15:00:05.000Z',
        outcome: 'no_answer',
        duration_seconds: null,
      },
      {
        buyer_id: buyers[2].buyer_id,
        offered_at: '2026-03-02T15:00:25.000Z',
        outcome: 'answered',
        duration_seconds: 95,
      },
    ]);
    expect(detail).toMatchObject({ buyer_id: buyers[2].buyer_id, billable: true, payout: '0.00' });
    const actions = (await auditRows(h, t.orgId)).map((a) => a.action);
    expect(actions.filter((a) => a === 'call.offered')).toHaveLength(3);
    expect(actions.filter((a) => a === 'call.offer_ended')).toHaveLength(3);
  });

  it('never offers one buyer twice: after every target failed, the fallback', async () => {
    const { t } = await chain(2);
    const call = await ring(h, t.numbers[0]!);
    const second = await dialEnded(h, call, call.step, 'failed');
    expect(await dialEnded(h, call, second, 'busy')).toEqual({
      kind: 'dial',
      number: CAMPAIGN_FORWARD,
      action: null,
      timeout: null,
      path: null,
    });
    expect(await callRow(call.callSid)).toMatchObject({
      fallback: 'forward_to',
      fallback_reason: 'no_more_targets',
      buyer_id: null,
    });
  });

  it('five failures: the fallback, though a sixth buyer is eligible', async () => {
    const { t, buyers } = await chain(6);
    let call = await ring(h, t.numbers[0]!);
    let step = call.step;
    for (let i = 0; i < 5; i++) {
      expect(dialed(step)).toBe(`+1312555016${i}`);
      step = await dialEnded(h, call, step, i % 2 ? 'busy' : 'no-answer');
    }
    expect(dialed(step)).toBe(CAMPAIGN_FORWARD);
    expect(await callRow(call.callSid)).toMatchObject({ fallback_reason: 'max_offers' });
    const detail = await callDetail(t, call.callSid);
    expect(detail.offers.map((o: { buyer_id: string }) => o.buyer_id)).toEqual(
      buyers.slice(0, 5).map((b) => b.buyer_id),
    );
    // A Dial result repeated after the fallback answers the fallback again, offering no one.
    call = { ...call };
    expect(dialed(await dialEnded(h, call, { ...call.step }, 'busy'))).toBe(CAMPAIGN_FORWARD);
    expect((await callDetail(t, call.callSid)).offers).toHaveLength(5);
  });

  it('the caller hung up while a buyer rang (canceled): nothing more is offered', async () => {
    const { t } = await chain(2);
    const call = await ring(h, t.numbers[0]!);
    expect(await dialEnded(h, call, call.step, 'canceled')).toEqual({ kind: 'hangup' });
    const detail = await callDetail(t, call.callSid);
    expect(detail.offers.map((o: { outcome: string }) => o.outcome)).toEqual(['canceled']);
  });
});

describe('no eligible target', () => {
  it('goes to the fallback at once: the campaign forward_to', async () => {
    const t = await routedTenant();
    const paused = await createBuyer(h, t.orgId, { status: 'paused' });
    await setRouting(h, t.orgId, t.code, { targets: [{ buyer_id: paused.buyer_id, priority: 1 }] });
    const call = await ring(h, t.numbers[0]!);
    expect(dialed(call.step)).toBe(CAMPAIGN_FORWARD);
    expect(await callRow(call.callSid)).toMatchObject({
      fallback: 'forward_to',
      fallback_reason: 'no_target',
    });
    expect((await callDetail(t, call.callSid)).offers).toEqual([]);
  });

  it('or hangs up with a goodbye when the fallback is hangup', async () => {
    const t = await routedTenant();
    await setRouting(h, t.orgId, t.code, { targets: [], fallback: 'hangup' });
    const call = await ring(h, t.numbers[0]!);
    expect(call.step).toEqual({ kind: 'goodbye' });
    expect(await callRow(call.callSid)).toMatchObject({
      fallback: 'hangup',
      fallback_reason: 'no_target',
    });
  });

  it('a buyer at its cap is not eligible', async () => {
    const t = await routedTenant();
    const capped = await createBuyer(h, t.orgId, {
      forward_to: '+13125550171',
      caps: { daily: 1 },
    });
    await setRouting(h, t.orgId, t.code, { targets: [{ buyer_id: capped.buyer_id, priority: 1 }] });
    expect(dialed((await ring(h, t.numbers[0]!)).step)).toBe('+13125550171');
    expect(dialed((await ring(h, t.numbers[0]!)).step)).toBe(CAMPAIGN_FORWARD);
  });
});

describe('the Dial action', () => {
  it('refuses an unsigned request', async () => {
    const { twilioPost } = await import('../helpers/twilio-webhook.js');
    const res = await twilioPost(
      h,
      '/carrier/twilio/dial?offer=ofr_x',
      { CallSid: 'CA1', DialCallStatus: 'busy' },
      { signature: 'bad' },
    );
    expect(res.statusCode).toBe(403);
  });

  it('a result without DialCallStatus or offer is a 400', async () => {
    const { twilioPost } = await import('../helpers/twilio-webhook.js');
    const missing = await twilioPost(h, '/carrier/twilio/dial?offer=ofr_x', { CallSid: 'CA1' });
    expect(missing.statusCode).toBe(400);
    const noOffer = await twilioPost(h, '/carrier/twilio/dial', {
      CallSid: 'CA1',
      DialCallStatus: 'busy',
    });
    expect(noOffer.statusCode).toBe(400);
  });
});
