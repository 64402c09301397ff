/**
 * A buyer's calendar caps when its time zone changes (docs/routing.md, "Calendar periods"): the
 * offers made in the new zone's current hour, day and month keep counting, so a PATCH of
 * `time_zone` never lets a cap be exceeded. Through the admin API and signed Twilio webhooks,
 * on both stores.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { adminCall, createTenant, json, type Tenant, useHarness } from '../helpers/harness.js';
import { admin, createBuyer, setRouting } from '../helpers/routing.js';
import { PUBLIC_BASE, TWILIO_TOKEN } from '../helpers/twilio-webhook.js';
import { dialEnded, ring, type Step } from '../helpers/voice.js';

const h = useHarness({ twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE } });
const CAMPAIGN_FORWARD = '+13125550199';

afterEach(() => {
  h.clock.set('2026-03-02T15:00:00Z');
});

const dialed = (step: Step) => (step.kind === 'dial' ? step.number : step.kind);

async function cappedBuyer(timeZone: string): Promise<{ t: Tenant; buyerId: string; to: string }> {
  const t = await createTenant(h);
  await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, {
    forward_to: CAMPAIGN_FORWARD,
  });
  const buyer = await createBuyer(h, t.orgId, { time_zone: timeZone, caps: { daily: 1 } });
  await setRouting(h, t.orgId, t.code, { targets: [{ buyer_id: buyer.buyer_id, priority: 1 }] });
  return { t, buyerId: buyer.buyer_id, to: buyer.forward_to };
}

const usage = async (t: Tenant, buyerId: string) =>
  json(await admin(h, 'GET', `/admin/orgs/${t.orgId}/buyers/${buyerId}`)).usage;

describe('a buyer’s time zone changed', () => {
  it('westward: today’s answered call still counts against the daily cap', async () => {
    // 15:00 UTC on 2 March: 10:00 in New York, 07:00 in Los Angeles, the same day in both.
    h.clock.set('2026-03-02T15:00:00Z');
    const { t, buyerId, to } = await cappedBuyer('America/New_York');
    const call = await ring(h, t.numbers[0]!);
    expect(dialed(call.step)).toBe(to);
    expect(await dialEnded(h, call, call.step, 'completed', 100)).toEqual({ kind: 'hangup' });
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/buyers/${buyerId}`, {
      time_zone: 'America/Los_Angeles',
    });
    h.clock.set('2026-03-02T16:00:00Z');
    expect(await usage(t, buyerId)).toMatchObject({ daily: 1, total: 1 });
    expect(dialed((await ring(h, t.numbers[0]!)).step)).toBe(CAMPAIGN_FORWARD);
  });

  it('eastward: a call of the new zone’s day made before the change counts', async () => {
    // 07:00 UTC on 2 March: 23:00 on 1 March in Los Angeles, 02:00 on 2 March in New York.
    h.clock.set('2026-03-02T07:00:00Z');
    const { t, buyerId, to } = await cappedBuyer('America/Los_Angeles');
    const call = await ring(h, t.numbers[0]!);
    expect(dialed(call.step)).toBe(to);
    expect(await dialEnded(h, call, call.step, 'completed', 100)).toEqual({ kind: 'hangup' });
    h.clock.set('2026-03-02T15:00:00Z');
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/buyers/${buyerId}`, {
      time_zone: 'America/New_York',
    });
    expect(await usage(t, buyerId)).toMatchObject({ daily: 1, total: 1 });
    expect(dialed((await ring(h, t.numbers[0]!)).step)).toBe(CAMPAIGN_FORWARD);
  });

  it('an unanswered offer of the old period does not count', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const { t, buyerId, to } = await cappedBuyer('America/New_York');
    const call = await ring(h, t.numbers[0]!);
    expect(dialed(await dialEnded(h, call, call.step, 'busy'))).toBe(CAMPAIGN_FORWARD);
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/buyers/${buyerId}`, {
      time_zone: 'America/Los_Angeles',
    });
    expect(await usage(t, buyerId)).toMatchObject({ daily: 0, total: 0 });
    expect(dialed((await ring(h, t.numbers[0]!, '+12125550777')).step)).toBe(to);
  });
});
