import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SimulatedCarrier } from '../../src/domain/dispatch/carriers/simulated.js';
import { ScriptedCarrier, worker } from '../helpers/dispatch.js';
import { ADMIN_TOKEN, json, useHarness } from '../helpers/harness.js';
import {
  freshContact,
  grant,
  outboundTenant,
  revoke,
  touch,
  WEEKDAY_MORNING_ET,
} from '../helpers/outbound.js';
import {
  allowPrivateTargets,
  createWebhook,
  Receiver,
  webhookWorker,
} from '../helpers/webhooks.js';

const h = useHarness({
  privateDatabase:
    "the webhook worker delivers every organization's pending events and the dispatch worker its touches",
});
let r: Receiver;
beforeEach(async () => {
  h.clock.set(WEEKDAY_MORNING_ET);
  allowPrivateTargets(h);
  r = await new Receiver().start();
});
afterEach(() => r.close());

async function placed(events: string[]) {
  const t = await outboundTenant(h, { config: { caller_id: '+12125550100' } });
  await createWebhook(h, t.orgId, r.url, events);
  const res = await touch(h, t.key, t.code, {
    to_e164: t.contact,
    channel: 'sms',
    consent_basis: 'pewc',
  });
  expect(res.statusCode).toBe(202);
  return { t, touchId: json(res).touch_id as string };
}

describe('touch events', () => {
  it('a placed touch produces touch.queued, then touch.delivered when the carrier accepts it', async () => {
    const { t, touchId } = await placed(['touch.queued', 'touch.delivered', 'touch.failed']);
    // A blocked touch produces nothing.
    const blocked = await touch(h, t.key, t.code, {
      to_e164: freshContact(),
      channel: 'sms',
      consent_basis: 'pewc',
    });
    expect(json(blocked).status).toBe('blocked');
    const { worker: hooks } = webhookWorker(h);
    expect(await hooks.tick()).toBe(1);
    expect(await worker(h, new SimulatedCarrier(h.deps.repos, h.clock)).tick()).toMatchObject({
      delivered: 1,
    });
    expect(await hooks.tick()).toBe(1);
    const [queued, delivered] = r.bodies();
    expect(queued).toMatchObject({
      type: 'touch.queued',
      org_id: t.orgId,
      data: { touch_id: touchId, to_e164: t.contact, channel: 'sms', consent_basis: 'pewc' },
    });
    expect(delivered).toMatchObject({
      type: 'touch.delivered',
      data: { touch_id: touchId, dispatch_status: 'delivered', attempts: 1, carrier: 'simulated' },
    });
    expect(delivered.data.carrier_ids).toHaveLength(1);
  });

  it('a touch the carrier refuses produces touch.failed', async () => {
    const { touchId } = await placed(['touch.failed']);
    const carrier = new ScriptedCarrier(() => ({
      outcome: 'failed',
      retryable: false,
      error: 'invalid number',
    }));
    await worker(h, carrier).tick();
    const { worker: hooks } = webhookWorker(h);
    expect(await hooks.tick()).toBe(1);
    expect(r.bodies()[0]).toMatchObject({
      type: 'touch.failed',
      data: { touch_id: touchId, dispatch_status: 'failed', error: 'invalid number' },
    });
  });
});

describe('consent.revoked', () => {
  it('an admin revocation and a CSV import revocation each produce one; a grant none', async () => {
    const t = await outboundTenant(h);
    await createWebhook(h, t.orgId, r.url, ['consent.revoked']);
    await revoke(h, t.orgId, t.contact, { kind: 'opt_out', reason: 'asked by phone' });
    // A repeat of the same revocation adds nothing and so sends nothing.
    await revoke(h, t.orgId, t.contact, { kind: 'opt_out', reason: 'asked by phone' });
    const other = freshContact();
    await grant(h, t.orgId, other);
    const csv = `e164,kind,reason\n${other},revoked,complaint\n`;
    const res = await h.admin.inject({
      method: 'POST',
      url: `/admin/orgs/${t.orgId}/consents/import`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { worker: hooks } = webhookWorker(h);
    expect(await hooks.tick()).toBe(2);
    const bodies = r.bodies().sort((a, b) => a.data.contact.localeCompare(b.data.contact));
    const byContact = Object.fromEntries(bodies.map((b) => [b.data.contact, b.data]));
    expect(byContact[t.contact]).toMatchObject({
      kind: 'opt_out',
      channel_scope: 'all',
      source: 'admin',
      reason: 'asked by phone',
      revoked_at: new Date(h.clock.now()).toISOString(),
    });
    expect(byContact[other]).toMatchObject({ kind: 'revoked', reason: 'complaint' });
  });
});
