import { beforeAll, describe, expect, it } from 'vitest';
import { fieldsOf, useCliSuite } from '../helpers/cli.js';
import { adminCall, createTenant, type Tenant } from '../helpers/harness.js';
import { allowPrivateTargets, Receiver, webhookWorker } from '../helpers/webhooks.js';

const suite = useCliSuite({
  privateDatabase: "the webhook worker delivers every organization's pending events",
});
const { admin, quiet } = suite;

let t: Tenant;
let receiver: Receiver;
beforeAll(async () => {
  allowPrivateTargets(suite.h);
  t = await createTenant(suite.h);
  receiver = await new Receiver((n) => (n === 1 ? 500 : 200)).start();
  return () => receiver.close();
});

describe('webhook commands', () => {
  it('create prints the secret once; list, show, update, disable, rotate, delete', async () => {
    const created = await admin([
      'webhook',
      'create',
      t.orgId,
      '--endpoint-url',
      receiver.url,
      '--events',
      'call.received,touch.failed',
    ]);
    expect(created.code, created.err).toBe(0);
    expect(created.out).toContain('secret (shown once');
    const secret = /\n {4}(whsec_\S+)\n/.exec(created.out)?.[1];
    expect(secret).toMatch(/^whsec_/);
    const id = fieldsOf(created.out.split('\n\n')[0]!).webhook_id!;
    expect(id).toMatch(/^whk_/);

    const list = await admin(['webhook', 'list', t.orgId]);
    expect(list.out.split('\n')[0]).toMatch(/^WEBHOOK_ID +ENABLED +EVENTS +URL +FAILURES$/);
    expect(list.out).toContain(id);
    expect(list.out).not.toContain(secret!);
    expect(await quiet(['webhook', 'list', t.orgId])).toBe(id);

    const json = await admin(['webhook', 'show', t.orgId, id, '--json']);
    expect(JSON.parse(json.out)).toMatchObject({
      webhook_id: id,
      events: ['call.received', 'touch.failed'],
    });

    const updated = await admin(['webhook', 'update', t.orgId, id, '--events', '*']);
    expect(fieldsOf(updated.out).events).toBe('*');
    const nothing = await admin(['webhook', 'update', t.orgId, id]);
    expect(nothing.code).toBe(64);

    expect(fieldsOf((await admin(['webhook', 'disable', t.orgId, id])).out).enabled).toBe('false');
    expect(fieldsOf((await admin(['webhook', 'enable', t.orgId, id])).out).enabled).toBe('true');

    const rotated = await quiet(['webhook', 'rotate', t.orgId, id, '--grace-seconds', '60']);
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);

    const other = await createTenant(suite.h);
    const foreign = await admin(['webhook', 'show', other.orgId, id]);
    expect(foreign.code).toBe(1);
    expect(foreign.err).toContain('webhook_not_found (404)');

    const deleted = await admin(['webhook', 'delete', t.orgId, id, '--json']);
    expect(JSON.parse(deleted.out)).toEqual({ webhook_id: id, deleted: true });
  });

  it('deliveries, attempts and replay', async () => {
    const shownOnce = await quiet([
      'webhook',
      'create',
      t.orgId,
      '--endpoint-url',
      receiver.url,
      '--events',
      'call.received',
    ]);
    const w = await adminCall(suite.h, 'GET', `/admin/orgs/${t.orgId}/webhooks`);
    const hookId = w.items.find((x: any) => x.events[0] === 'call.received').webhook_id;
    // -q prints the secret, the one value that cannot be had later.
    expect(shownOnce).toMatch(/^whsec_/);
    await adminCall(suite.h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
      to: t.numbers[0],
      from: '+12125550100',
    });
    const { worker } = webhookWorker(suite.h, { maxAttempts: 1 });
    await worker.tick();
    const deliveries = await admin(['webhook', 'deliveries', t.orgId, hookId, '--state', 'failed']);
    expect(deliveries.out.split('\n')[0]).toMatch(/^CREATED_AT +EVENT_ID +TYPE +STATE/);
    expect(deliveries.out).toContain('call.received');
    const eventId = await quiet(['webhook', 'deliveries', t.orgId, hookId]);
    expect(eventId).toMatch(/^msg_/);
    const attempts = await admin(['webhook', 'attempts', t.orgId, hookId, '--event-id', eventId]);
    expect(attempts.out).toMatch(/failed +500/);
    // The replay's attempt comes a second later: attempts list newest first by start time.
    suite.h.clock.advance(1);
    expect(await quiet(['webhook', 'replay', t.orgId, hookId, '--event-id', eventId])).toBe('1');
    await worker.tick();
    const after = await admin(['webhook', 'attempts', t.orgId, hookId, '--json']);
    expect(JSON.parse(after.out).attempts.map((a: any) => a.status_code)).toEqual([200, 500]);
    const bad = await admin(['webhook', 'replay', t.orgId, hookId]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('give exactly one of event_id and since');
  });
});
