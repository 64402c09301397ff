import { describe, expect, it } from 'vitest';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/config.js';
import { ADMIN_TOKEN, adminCall, createTenant, json, useHarness } from '../helpers/harness.js';
import { TEST_WEBHOOK_SETTINGS } from '../helpers/webhooks.js';

const h = useHarness();

function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  return h.admin.inject({
    method,
    url,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

const RECEIVER = 'http://127.0.0.1:9/hook';

async function withSettings<T>(allow: boolean, fn: () => Promise<T>): Promise<T> {
  h.deps.webhooks = allow ? TEST_WEBHOOK_SETTINGS : DEFAULT_WEBHOOK_SETTINGS;
  try {
    return await fn();
  } finally {
    h.deps.webhooks = TEST_WEBHOOK_SETTINGS;
  }
}

describe('create, show, list', () => {
  it('answers 201 with a whsec_ secret once; show and list never repeat it', async () => {
    h.deps.webhooks = TEST_WEBHOOK_SETTINGS;
    const t = await createTenant(h);
    const res = await call('POST', `/admin/orgs/${t.orgId}/webhooks`, {
      url: RECEIVER,
      events: ['call.received', 'touch.failed', 'call.received'],
      description: 'CRM',
    });
    expect(res.statusCode).toBe(201);
    const created = json(res);
    expect(created.webhook_id).toMatch(/^whk_/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created).toMatchObject({
      org_id: t.orgId,
      url: RECEIVER,
      events: ['call.received', 'touch.failed'],
      description: 'CRM',
      enabled: true,
    });
    const shown = await adminCall(
      h,
      'GET',
      `/admin/orgs/${t.orgId}/webhooks/${created.webhook_id}`,
    );
    expect(shown.secret).toBeUndefined();
    expect(shown.webhook_id).toBe(created.webhook_id);
    const list = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/webhooks`);
    expect(list.items.map((w: any) => w.webhook_id)).toEqual([created.webhook_id]);
    expect(JSON.stringify(list)).not.toContain(created.secret);
  });

  it('lists {items, next_cursor} a page at a time, oldest first, like every admin list', async () => {
    h.deps.webhooks = TEST_WEBHOOK_SETTINGS;
    const t = await createTenant(h);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const w = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/webhooks`, {
        url: `${RECEIVER}${i}`,
        events: ['*'],
      });
      ids.push(w.webhook_id);
    }
    // Ids begin with their creation time, so id order is creation order (ties: same millisecond).
    ids.sort();
    const first = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/webhooks?limit=2`);
    expect(first.items.map((w: any) => w.webhook_id)).toEqual(ids.slice(0, 2));
    expect(first.next_cursor).toEqual(expect.any(String));
    const rest = await adminCall(
      h,
      'GET',
      `/admin/orgs/${t.orgId}/webhooks?limit=2&cursor=${first.next_cursor}`,
    );
    expect(rest).toEqual({
      items: [expect.objectContaining({ webhook_id: ids[2] })],
      next_cursor: null,
    });
    const bad = await call('GET', `/admin/orgs/${t.orgId}/webhooks?cursor=nope`);
    expect(bad.statusCode).toBe(422);
  });

  it('["*"] with other types is just ["*"]', async () => {
    const t = await createTenant(h);
    const w = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/webhooks`, {
      url: RECEIVER,
      events: ['touch.queued', '*'],
    });
    expect(w.events).toEqual(['*']);
  });
});

describe('update, disable, enable, rotate, delete', () => {
  it('changes fields, disables and enables, and writes audit lines', async () => {
    const t = await createTenant(h);
    const w = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/webhooks`, {
      url: RECEIVER,
      events: ['*'],
    });
    const path = `/admin/orgs/${t.orgId}/webhooks/${w.webhook_id}`;
    const up = await adminCall(h, 'PATCH', path, { events: ['pool.exhausted'], description: null });
    expect(up).toMatchObject({ events: ['pool.exhausted'], description: null, enabled: true });
    const off = await adminCall(h, 'POST', `${path}/disable`);
    expect(off).toMatchObject({ enabled: false, disabled_reason: 'admin' });
    const on = await adminCall(h, 'POST', `${path}/enable`);
    expect(on).toMatchObject({ enabled: true, disabled_reason: null, disabled_at: null });
    const audit = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/audit?action=webhook.*`);
    expect(audit.items.map((e: any) => e.action).sort()).toEqual([
      'webhook.created',
      'webhook.updated',
      'webhook.updated',
      'webhook.updated',
    ]);
  });

  it('rotate answers a new secret; the old one stays valid for the grace period', async () => {
    const t = await createTenant(h);
    const w = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/webhooks`, {
      url: RECEIVER,
      events: ['*'],
    });
    const res = await call('POST', `/admin/orgs/${t.orgId}/webhooks/${w.webhook_id}/rotate`, {
      grace_seconds: 3600,
    });
    expect(res.statusCode).toBe(201);
    const r = json(res);
    expect(r.secret).toMatch(/^whsec_/);
    expect(r.secret).not.toBe(w.secret);
    expect(r.previous_secret_valid_until).toBe(new Date(h.clock.now() + 3_600_000).toISOString());
  });

  it('delete answers 200, then the webhook is 404', async () => {
    const t = await createTenant(h);
    const w = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/webhooks`, {
      url: RECEIVER,
      events: ['*'],
    });
    const path = `/admin/orgs/${t.orgId}/webhooks/${w.webhook_id}`;
    const del = await call('DELETE', path);
    expect(del.statusCode).toBe(200);
    expect(json(del)).toEqual({ webhook_id: w.webhook_id, deleted: true });
    const again = await call('GET', path);
    expect(again.statusCode).toBe(404);
    expect(json(again)).toEqual({ detail: 'webhook_not_found' });
  });
});

describe('tenancy', () => {
  it("another organization's webhook is 404 on every route, and never listed", async () => {
    const a = await createTenant(h);
    const b = await createTenant(h);
    const w = await adminCall(h, 'POST', `/admin/orgs/${a.orgId}/webhooks`, {
      url: RECEIVER,
      events: ['*'],
    });
    const p = `/admin/orgs/${b.orgId}/webhooks/${w.webhook_id}`;
    for (const [method, url, body] of [
      ['GET', p, undefined],
      ['PATCH', p, { description: 'x' }],
      ['POST', `${p}/disable`, undefined],
      ['POST', `${p}/rotate`, {}],
      ['DELETE', p, undefined],
      ['GET', `${p}/deliveries`, undefined],
      ['GET', `${p}/attempts`, undefined],
      ['POST', `${p}/replay`, { since: '2026-01-01T00:00:00Z' }],
    ] as const) {
      const res = await call(method, url, body);
      expect([method, url, res.statusCode, json(res)]).toEqual([
        method,
        url,
        404,
        { detail: 'webhook_not_found' },
      ]);
    }
    const list = await adminCall(h, 'GET', `/admin/orgs/${b.orgId}/webhooks`);
    expect(list.items).toEqual([]);
    const shown = await adminCall(h, 'GET', `/admin/orgs/${a.orgId}/webhooks/${w.webhook_id}`);
    expect(shown.description).toBeNull();
  });

  it('an unknown organization is 404 org_not_found', async () => {
    const res = await call('GET', '/admin/orgs/org_missing/webhooks');
    expect(res.statusCode).toBe(404);
    expect(json(res)).toEqual({ detail: 'org_not_found' });
  });
});

describe('auth and bad input', () => {
  it('401 without the admin token', async () => {
    const t = await createTenant(h);
    const res = await h.admin.inject({ method: 'GET', url: `/admin/orgs/${t.orgId}/webhooks` });
    expect(res.statusCode).toBe(401);
    expect(json(res)).toEqual({ detail: 'invalid_admin_token' });
  });

  it('422 lists every bad field and writes nothing', async () => {
    const t = await createTenant(h);
    const res = await call('POST', `/admin/orgs/${t.orgId}/webhooks`, {
      events: ['call.exploded'],
      extra: 1,
    });
    expect(res.statusCode).toBe(422);
    const locs = json(res).detail.map((d: any) => d.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.url', 'body.events.0', 'body.extra']));
    const list = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/webhooks`);
    expect(list.items).toEqual([]);
  });

  it('replay needs exactly one of event_id and since', async () => {
    const t = await createTenant(h);
    const w = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/webhooks`, {
      url: RECEIVER,
      events: ['*'],
    });
    const res = await call('POST', `/admin/orgs/${t.orgId}/webhooks/${w.webhook_id}/replay`, {});
    expect(res.statusCode).toBe(422);
    expect(json(res).detail[0].loc).toEqual(['body']);
  });
});

describe('safe targets', () => {
  const refused = async (orgId: string, url: string) => {
    const res = await call('POST', `/admin/orgs/${orgId}/webhooks`, { url, events: ['*'] });
    expect([url, res.statusCode]).toEqual([url, 422]);
    return json(res).detail[0];
  };

  it('refuses loopback, metadata, private and http:// targets when not allowed', async () => {
    await withSettings(false, async () => {
      const t = await createTenant(h);
      expect((await refused(t.orgId, 'https://127.0.0.1/hook')).msg).toContain('loopback');
      expect((await refused(t.orgId, 'https://169.254.169.254/latest/meta-data')).msg).toContain(
        'linkLocal',
      );
      expect((await refused(t.orgId, 'https://[::1]/hook')).msg).toContain('loopback');
      expect((await refused(t.orgId, 'https://10.1.2.3/hook')).msg).toContain('private');
      expect((await refused(t.orgId, 'https://[::ffff:192.168.0.1]/')).msg).toContain('private');
      // A name that resolves to loopback is refused too: the check resolves it.
      expect((await refused(t.orgId, 'https://localhost/hook')).msg).toContain('127.0.0.1');
      expect((await refused(t.orgId, 'http://203.0.113.10/hook')).msg).toContain('https://');
      expect((await refused(t.orgId, 'https://user:pw@203.0.113.10/')).msg).toContain(
        'credentials',
      );
      const list = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/webhooks`);
      expect(list.items).toEqual([]);
    });
  });

  // IPv6 forms that carry an IPv4 address: ipaddr.js calls `::7f00:1` unicast (issue 18).
  const EMBEDDED = [
    ['https://[::127.0.0.1]/', 'loopback'],
    ['https://[::7f00:1]/', 'loopback'],
    ['https://[::a9fe:a9fe]/latest/meta-data', 'linkLocal'],
    ['https://[::a00:1]/', 'private'],
    ['https://[64:ff9b::169.254.169.254]/', 'linkLocal'],
    ['https://[64:ff9b:1::a00:1]/', 'private'],
    ['https://[2002:a9fe:a9fe::1]/', 'linkLocal'],
    ['https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/', 'private'],
  ] as const;

  it.each(EMBEDDED)('refuses %s at creation (embeds a %s address)', async (url, range) => {
    await withSettings(false, async () => {
      const t = await createTenant(h);
      const detail = await refused(t.orgId, url);
      expect(detail.msg).toContain(`, a ${range} address`);
      expect(detail.msg).toMatch(/address embedding \d+\.\d+\.\d+\.\d+/);
      expect((await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/webhooks`)).items).toEqual([]);
    });
  });

  it.each(EMBEDDED)('refuses %s on PATCH, leaving the webhook as it was', async (url, range) => {
    await withSettings(false, async () => {
      const t = await createTenant(h);
      const w = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/webhooks`, {
        url: 'https://93.184.215.14/hook',
        events: ['*'],
      });
      const path = `/admin/orgs/${t.orgId}/webhooks/${w.webhook_id}`;
      const res = await call('PATCH', path, { url });
      expect(res.statusCode).toBe(422);
      expect(json(res).detail[0].msg).toContain(`, a ${range} address`);
      expect((await adminCall(h, 'GET', path)).url).toBe('https://93.184.215.14/hook');
    });
  });

  it('accepts a public https address', async () => {
    await withSettings(false, async () => {
      const t = await createTenant(h);
      const res = await call('POST', `/admin/orgs/${t.orgId}/webhooks`, {
        url: 'https://93.184.215.14/hook',
        events: ['*'],
      });
      expect(res.statusCode).toBe(201);
    });
  });
});
