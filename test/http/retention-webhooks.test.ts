import { afterAll, describe, expect, it } from 'vitest';
import type { RetentionConfig } from '../../src/config.js';
import {
  ADMIN_TOKEN,
  adminCall,
  createTenant,
  type Tenant,
  useHarness,
} from '../helpers/harness.js';
import { countRows, testRetention } from '../helpers/retention.js';
import {
  allowPrivateTargets,
  createWebhook,
  Receiver,
  webhookWorker,
} from '../helpers/webhooks.js';

const h = useHarness({
  privateDatabase: "the retention job and the webhook worker work on every organization's rows",
});
const DAY_S = 86_400;
const receivers: Receiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

const retention = (o: Partial<RetentionConfig> = {}) => testRetention(h, o);
const count = (table: string, where?: string, params?: unknown[]) =>
  countRows(h, table, where, params);

async function receiver(answer: (n: number) => number) {
  const r = await new Receiver(answer).start();
  receivers.push(r);
  return r;
}

/** A recorded call: one call.received event, one delivery per subscribed endpoint. */
async function event(t: Tenant): Promise<string> {
  const before = await h.store.query<{ id: string }>(
    'select id from webhook_events where org_id = $1',
    [t.orgId],
  );
  await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
    to: t.numbers[0],
    from: '+13125550177',
  });
  const after = await h.store.query<{ id: string }>(
    'select id from webhook_events where org_id = $1',
    [t.orgId],
  );
  const fresh = after.map((r) => r.id).filter((id) => !before.some((b) => b.id === id));
  expect(fresh).toHaveLength(1);
  return fresh[0]!;
}

const deliveries = (eventId: string) => count('webhook_deliveries', 'event_id = $1', [eventId]);
const attempts = (eventId: string) => count('webhook_attempts', 'event_id = $1', [eventId]);
const events = (eventId: string) => count('webhook_events', 'id = $1', [eventId]);

function replay(t: Tenant, webhookId: string, eventId: string) {
  return h.admin.inject({
    method: 'POST',
    url: `/admin/orgs/${t.orgId}/webhooks/${webhookId}/replay`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { event_id: eventId },
  });
}

const inState = (eventId: string, state: string) =>
  count('webhook_deliveries', 'event_id = $1 and state = $2', [eventId, state]);
const LONG_MS = 90 * DAY_S * 1000;

describe('webhook history', () => {
  it('goes WEBHOOK_RETENTION_DAYS after it became final; pending deliveries and their events stay', async () => {
    allowPrivateTargets(h);
    h.clock.set('2026-05-04T15:00:00Z');
    let downAnswers = 500;
    const ok = await receiver(() => 200);
    const down = await receiver(() => downAnswers);
    const gone = await receiver(() => 410);

    // delivered: one endpoint that answers 200
    const a = await createTenant(h, { numbers: 1 });
    const okHook = await createWebhook(h, a.orgId, ok.url);
    // mixed: one endpoint delivers, the other fails and waits for its retry (pending)
    const b = await createTenant(h, { numbers: 1 });
    await createWebhook(h, b.orgId, ok.url);
    const downHook = await createWebhook(h, b.orgId, down.url);
    // failed: 410 gives up at once (and disables the endpoint)
    const c = await createTenant(h, { numbers: 1 });
    await createWebhook(h, c.orgId, gone.url);

    const delivered = await event(a);
    const mixed = await event(b);
    const failed = await event(c);
    // The retry is not due for 90 days: the pending row is as old as the final ones.
    const { worker } = webhookWorker(h, { backoffBaseMs: LONG_MS, backoffMaxMs: LONG_MS });
    expect(await worker.tick()).toBe(4);
    expect(await inState(delivered, 'delivered')).toBe(1);
    expect(await inState(mixed, 'delivered')).toBe(1);
    expect(await inState(mixed, 'pending')).toBe(1);
    expect(await inState(failed, 'failed')).toBe(1);
    expect(await attempts(mixed)).toBe(2);

    h.clock.advance(20 * DAY_S);
    const young = await event(a);
    expect(await worker.tick()).toBe(1);
    const r = retention();

    // 30 days less a minute after they became final: everything stays.
    h.clock.advance(10 * DAY_S - 60);
    const early = (await r.runOnce())!;
    expect(early).toMatchObject({ webhook_deliveries: 0, webhook_attempts: 0, webhook_events: 0 });
    for (const id of [delivered, mixed, failed, young]) expect(await events(id)).toBe(1);

    // Past the window: final deliveries, their attempts and events left without deliveries go.
    h.clock.advance(120);
    const past = (await r.runOnce())!;
    expect(past).toMatchObject({ webhook_deliveries: 3, webhook_attempts: 3, webhook_events: 2 });
    for (const id of [delivered, failed]) {
      expect(await events(id)).toBe(0);
      expect(await deliveries(id)).toBe(0);
      expect(await attempts(id)).toBe(0);
    }
    // The pending delivery (last written 30 days ago too), its attempt and its event stay.
    expect(await inState(mixed, 'pending')).toBe(1);
    expect(await inState(mixed, 'delivered')).toBe(0);
    expect(await attempts(mixed)).toBe(1);
    expect(await events(mixed)).toBe(1);
    // The young event and its history stay, and can be replayed; a pruned event cannot.
    expect(await deliveries(young)).toBe(1);
    expect(await attempts(young)).toBe(1);
    expect((await replay(a, okHook.webhook_id, young)).statusCode).toBe(202);
    expect((await replay(a, okHook.webhook_id, delivered)).statusCode).toBe(404);
    expect(await worker.tick()).toBe(1);
    expect(await inState(young, 'delivered')).toBe(1);

    // The pending delivery finally goes (replayed now): 30 days later, its event goes too.
    downAnswers = 200;
    h.clock.advance(DAY_S);
    expect((await replay(b, downHook.webhook_id, mixed)).statusCode).toBe(202);
    expect(await worker.tick()).toBe(1);
    expect(await inState(mixed, 'delivered')).toBe(1);
    h.clock.advance(30 * DAY_S - 120);
    // The young event's replay was delivered just over 30 days ago: it goes now.
    expect((await r.runOnce())!).toMatchObject({ webhook_deliveries: 1, webhook_events: 1 });
    expect(await events(young)).toBe(0);
    expect(await events(mixed)).toBe(1);
    expect(await attempts(mixed)).toBe(2);
    h.clock.advance(240);
    expect((await r.runOnce())!).toMatchObject({
      webhook_deliveries: 1,
      webhook_attempts: 2,
      webhook_events: 1,
    });
    for (const id of [mixed, young]) {
      expect(await events(id)).toBe(0);
      expect(await deliveries(id)).toBe(0);
      expect(await attempts(id)).toBe(0);
    }
    await r.stop();
  });

  it('an event whose endpoint was deleted (with its deliveries) goes when it is past the window', async () => {
    allowPrivateTargets(h);
    h.clock.set('2026-09-01T12:00:00Z');
    const ok = await receiver(() => 200);
    const t = await createTenant(h, { numbers: 1 });
    const hook = await createWebhook(h, t.orgId, ok.url);
    const orphan = await event(t);
    const res = await h.admin.inject({
      method: 'DELETE',
      url: `/admin/orgs/${t.orgId}/webhooks/${hook.webhook_id}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(await deliveries(orphan)).toBe(0);
    const r = retention();
    h.clock.advance(30 * DAY_S - 60);
    await r.runOnce();
    expect(await events(orphan)).toBe(1);
    h.clock.advance(120);
    expect((await r.runOnce())!.webhook_events).toBe(1);
    expect(await events(orphan)).toBe(0);
    await r.stop();
  });
});
