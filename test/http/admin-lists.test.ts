import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { CallItem } from '../../src/routes/admin/calls/schema.js';
import { CampaignItem, NumberItem } from '../../src/routes/admin/campaigns/schema.js';
import { ConsentEventItem } from '../../src/routes/admin/consents/schema.js';
import { KeyItem } from '../../src/routes/admin/keys/schema.js';
import { OrgItem } from '../../src/routes/admin/orgs/schema.js';
import { pageOfItems } from '../../src/routes/admin/shared/views.js';
import { SuppressionEntryItem } from '../../src/routes/admin/suppression/schema.js';
import { TouchItem } from '../../src/routes/admin/touches/schema.js';
import {
  ADMIN_TOKEN,
  adminCall,
  createTenant,
  dni,
  freshNumbers,
  json,
  type Tenant,
  useHarness,
} from '../helpers/harness.js';
import { freshContact, grant, revoke, touch, WEEKDAY_MORNING_ET } from '../helpers/outbound.js';
import { recordCall } from '../helpers/reports.js';

const h = useHarness({
  privateDatabase: 'GET /admin/orgs is walked to the end: every organization in the database',
});

const get = (url: string, token: string | null = ADMIN_TOKEN) =>
  h.admin.inject({
    method: 'GET',
    url,
    headers: token === null ? {} : { authorization: `Bearer ${token}` },
  });

/** Follows next_cursor from the first page to the last; checks each page's size on the way. */
async function walk(url: string, limit: number): Promise<any[]> {
  const all: any[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const sep = url.includes('?') ? '&' : '?';
    const res = await get(`${url}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = json(res);
    expect(Object.keys(body).sort()).toEqual(['items', 'next_cursor']);
    expect(body.items.length).toBeLessThanOrEqual(limit);
    all.push(...body.items);
    cursor = body.next_cursor;
    if (cursor === null) return all;
    expect(body.items.length).toBe(limit);
  }
  throw new Error('paging never ended');
}

const once = (ids: string[]) => expect(new Set(ids).size).toBe(ids.length);

describe('organizations and keys', () => {
  it('lists organizations newest first; paging walks every one exactly once', async () => {
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push((await adminCall(h, 'POST', '/admin/orgs', { name: `Org ${i}` })).org_id);
      h.clock.advance(1);
    }
    const all = await walk('/admin/orgs', 2);
    const ids = all.map((o) => o.org_id);
    once(ids);
    expect(ids.filter((id) => made.includes(id))).toEqual([...made].reverse());
    expect(all.find((o) => o.org_id === made[0])).toMatchObject({ name: 'Org 0' });
  });

  it('lists keys without any secret, filters by status, and never lists another org’s keys', async () => {
    const t = await createTenant(h);
    const other = await createTenant(h);
    const secrets = [t.key, other.key];
    const extra = [];
    for (let i = 0; i < 3; i++) {
      const k = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/keys`, { scopes: ['enroll'] });
      secrets.push(k.api_key);
      extra.push(k.key_id);
    }
    await adminCall(h, 'POST', `/admin/keys/${extra[0]}/revoke`);
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/keys`, {
      scopes: ['enroll'],
      expires_at: new Date(h.clock.now() + 1000).toISOString(),
    });
    h.clock.advance(2);

    const all = await walk(`/admin/orgs/${t.orgId}/keys`, 2);
    expect(all).toHaveLength(5);
    once(all.map((k) => k.key_id));
    expect(all.map((k) => k.key_id)).not.toContain(other.keyId);
    for (const k of all) {
      expect(k).not.toHaveProperty('api_key');
      expect(k).not.toHaveProperty('key_hash');
      expect(k.org_id).toBe(t.orgId);
    }
    const text = (await get(`/admin/orgs/${t.orgId}/keys`)).body;
    for (const s of secrets) expect(text).not.toContain(s);

    const ids = async (status: string) =>
      json(await get(`/admin/orgs/${t.orgId}/keys?status=${status}`)).items.map(
        (k: { key_id: string }) => k.key_id,
      );
    expect(await ids('revoked')).toEqual([extra[0]]);
    expect(await ids('expired')).toHaveLength(1);
    expect((await ids('active')).sort()).toEqual([t.keyId, extra[1], extra[2]].sort());
  });

  it('shows one key without its secret; an unknown key is 404', async () => {
    const t = await createTenant(h);
    const res = await get(`/admin/keys/${t.keyId}`);
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ key_id: t.keyId, org_id: t.orgId, revoked_at: null });
    expect(res.body).not.toContain(t.key);
    expect(json(res)).not.toHaveProperty('key_hash');
    expect((await get('/admin/keys/key_0000000000000000')).statusCode).toBe(404);
  });
});

describe('campaigns and numbers', () => {
  it('lists campaigns with their pool size, only the organization’s own', async () => {
    const t = await createTenant(h, { numbers: 4, overflow: true });
    const other = await createTenant(h);
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/campaigns`, {
      code: 'zz1',
      name: 'Second',
      numbers: freshNumbers(2),
    });
    const all = await walk(`/admin/orgs/${t.orgId}/campaigns`, 1);
    const codes = all.map((c) => c.code);
    expect(codes.sort()).toEqual([t.code, 'zz1'].sort());
    expect(codes).not.toContain(other.code);
    expect(all.find((c) => c.code === t.code)).toMatchObject({ pool_size: 4, name: 'Campaign' });
    expect(all.find((c) => c.code === t.code).overflow_number).toMatch(/^\+1/);
  });

  it('lists numbers with the live holder and held-until; filters by state and role', async () => {
    const t = await createTenant(h, { numbers: 3, overflow: true });
    const s = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 'v-held' }));
    const base = `/admin/orgs/${t.orgId}/campaigns/${t.code}/numbers`;

    const all = await walk(base, 1);
    expect(all.map((n) => n.e164)).toEqual([...all.map((n) => n.e164)].sort());
    expect(all).toHaveLength(4);
    const held = all.filter((n) => n.holder !== null);
    expect(held).toEqual([
      expect.objectContaining({
        e164: s.tracking_number,
        role: 'pool',
        holder: { dni_session_id: s.dni_session_id, visitor_id: 'v-held' },
        held_until: s.expires_at,
      }),
    ]);
    const count = async (q: string) => json(await get(`${base}?${q}`)).items.length;
    expect(await count('state=held')).toBe(1);
    expect(await count('state=free')).toBe(3);
    expect(await count('role=overflow')).toBe(1);
    expect(await count('role=pool&state=free')).toBe(2);

    const one = json(await get(`${base}/${encodeURIComponent(s.tracking_number)}`));
    expect(one.holder).toEqual({ dni_session_id: s.dni_session_id, visitor_id: 'v-held' });
    h.clock.advance(3 * 3600);
    const later = json(await get(`${base}/${encodeURIComponent(s.tracking_number)}`));
    expect(later).toMatchObject({ holder: null, held_until: null });
  });

  it('another organization’s campaign or number is a 404, like a missing one', async () => {
    const t = await createTenant(h);
    const other = await createTenant(h);
    const mine = `/admin/orgs/${t.orgId}/campaigns`;
    expect((await get(`${mine}/${other.code}/numbers`)).statusCode).toBe(404);
    expect(
      (await get(`${mine}/${t.code}/numbers/${encodeURIComponent(other.numbers[0]!)}`)).statusCode,
    ).toBe(404);
    expect((await get('/admin/orgs/org_0000000000000000/campaigns')).statusCode).toBe(404);
  });
});

describe('calls', () => {
  /** Calls are recorded a second apart, so their ids (which begin with the time) are ordered. */
  async function callsOf(t: Tenant) {
    h.clock.set('2026-03-02T15:00:00Z');
    const s = json(
      await dni(h, t.key, {
        campaign_code: t.code,
        visitor_id: 'v-call',
        gclid: 'G-1',
        landing_url: 'https://example.com/?utm_source=news&msclkid=M-1',
      }),
    );
    h.clock.advance(1);
    const first = await recordCall(h, t, {
      to: s.tracking_number,
      startedAt: '2026-03-02T15:00:10Z',
    });
    h.clock.advance(1);
    const second = await recordCall(h, t, { to: t.numbers[2], startedAt: '2026-03-02T16:00:00Z' });
    h.clock.advance(1);
    const third = await recordCall(h, t, { to: t.numbers[2], startedAt: '2026-03-02T17:00:00Z' });
    return { s, first, second, third };
  }

  it('lists calls with their attribution, pages and filters by time and campaign', async () => {
    const t = await createTenant(h);
    const { s, first, second, third } = await callsOf(t);
    const base = `/admin/orgs/${t.orgId}/calls`;
    const all = await walk(base, 2);
    expect(all.map((c) => c.call_id)).toEqual([third, second, first]);
    expect(all[2]).toMatchObject({
      campaign_code: t.code,
      tracking_number: s.tracking_number,
      from: '+12125550100',
      started_at: '2026-03-02T15:00:10.000Z',
      attribution: {
        kind: 'session',
        dni_session_id: s.dni_session_id,
        visitor_id: 'v-call',
        landing_url: 'https://example.com/?utm_source=news&msclkid=M-1',
        click_ids: { gclid: 'G-1', msclkid: 'M-1' },
        utm: { source: 'news' },
      },
    });
    const ids = async (q: string) =>
      json(await get(`${base}?${q}`)).items.map((c: { call_id: string }) => c.call_id);
    expect(await ids('since=2026-03-02T16:00:00Z')).toEqual([third, second]);
    expect(await ids('until=2026-03-02T16:00:00Z')).toEqual([first]);
    expect(await ids(`campaign=${t.code}&attribution=session`)).toEqual([first]);
    expect((await get(`${base}?campaign=zzz`)).statusCode).toBe(404);
  });

  it('shows one call; another organization’s call is a 404', async () => {
    const t = await createTenant(h);
    const other = await createTenant(h);
    const { first } = await callsOf(t);
    const res = await get(`/admin/orgs/${t.orgId}/calls/${first}`);
    expect(json(res)).toMatchObject({ call_id: first, attribution: { kind: 'session' } });
    expect((await get(`/admin/orgs/${other.orgId}/calls/${first}`)).statusCode).toBe(404);
    expect(json(await get(`/admin/orgs/${other.orgId}/calls`)).items).toEqual([]);
  });
});

describe('touches and consents', () => {
  it('lists touches with checks and dispatch state; filters by status; tenancy holds', async () => {
    h.clock.set(WEEKDAY_MORNING_ET);
    const t = await createTenant(h);
    const other = await createTenant(h);
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, {
      config: { caller_id: '+12125550100' },
    });
    const ok = freshContact();
    await grant(h, t.orgId, ok);
    const body = (to: string) => ({ to_e164: to, channel: 'call', consent_basis: 'pewc' });
    const placed = json(await touch(h, t.key, t.code, body(ok)));
    h.clock.advance(1);
    const blocked = json(await touch(h, t.key, t.code, body(freshContact())));
    const base = `/admin/orgs/${t.orgId}/touches`;
    const all = await walk(base, 1);
    expect(all.map((x) => x.touch_id)).toEqual([blocked.touch_id, placed.touch_id]);
    expect(all[1]).toMatchObject({
      campaign_code: t.code,
      to_e164: ok,
      status: 'queued',
      dispatch: { status: 'pending', attempts: 0 },
    });
    expect(Array.isArray(all[1].checks) || typeof all[1].checks === 'object').toBe(true);
    expect(all[0]).toMatchObject({ status: 'blocked', dispatch: null });
    const ids = async (q: string) =>
      json(await get(`${base}?${q}`)).items.map((x: { touch_id: string }) => x.touch_id);
    expect(await ids('status=blocked')).toEqual([blocked.touch_id]);
    expect(await ids('dispatch_status=pending')).toEqual([placed.touch_id]);
    expect(await ids(`to=${encodeURIComponent(ok)}`)).toEqual([placed.touch_id]);
    expect(await ids(`since=${encodeURIComponent(new Date(h.clock.now()).toISOString())}`)).toEqual(
      [blocked.touch_id],
    );
    expect(json(await get(`/admin/orgs/${other.orgId}/touches`)).items).toEqual([]);
    const shown = json(await get(`${base}/${placed.touch_id}`));
    expect(shown).toMatchObject({ touch_id: placed.touch_id, dispatch: { history: [] } });
    expect(shown.checks).toEqual(all[1].checks);
    expect((await get(`/admin/orgs/${other.orgId}/touches/${placed.touch_id}`)).statusCode).toBe(
      404,
    );
  });

  it('lists consent events newest first, by contact and kind; tenancy holds', async () => {
    const t = await createTenant(h);
    const other = await createTenant(h);
    const a = freshContact();
    const b = freshContact();
    await grant(h, t.orgId, a);
    h.clock.advance(1);
    await grant(h, t.orgId, b);
    h.clock.advance(1);
    await revoke(h, t.orgId, a, { kind: 'opt_out' });
    await grant(h, other.orgId, a);
    const base = `/admin/orgs/${t.orgId}/consents`;
    const all = await walk(base, 2);
    expect(all.map((e) => [e.e164, e.kind])).toEqual([
      [a, 'opt_out'],
      [b, 'grant'],
      [a, 'grant'],
    ]);
    once(all.map((e) => e.id));
    const kinds = async (q: string) =>
      json(await get(`${base}?${q}`)).items.map((e: { kind: string }) => e.kind);
    expect(await kinds(`e164=${encodeURIComponent(a)}`)).toEqual(['opt_out', 'grant']);
    expect(await kinds('kind=grant')).toEqual(['grant', 'grant']);
    expect(json(await get(`/admin/orgs/${other.orgId}/consents`)).items).toHaveLength(1);
  });
});

describe('suppression entries', () => {
  const entry = (org: string, list: string, e164: string) =>
    `/admin/orgs/${org}/suppression/${list}/${encodeURIComponent(e164)}`;

  it('lists one list in number order, pages it, filters a state list by state; tenancy holds', async () => {
    const t = await createTenant(h);
    const other = await createTenant(h);
    const numbers = [freshContact(), freshContact(), freshContact()];
    for (const n of numbers) {
      await adminCall(h, 'PUT', entry(t.orgId, 'internal', n), { source: 'call notes' });
    }
    await adminCall(h, 'PUT', entry(t.orgId, 'state', numbers[0]!), { state: 'CA' });
    await adminCall(h, 'PUT', entry(t.orgId, 'state', numbers[1]!), { state: 'NY' });
    await adminCall(h, 'PUT', entry(other.orgId, 'internal', freshContact()), {});

    const base = `/admin/orgs/${t.orgId}/suppression`;
    const all = await walk(`${base}/internal`, 2);
    expect(all.map((e) => e.e164)).toEqual(
      [...numbers].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))),
    );
    expect(all[0]).toMatchObject({ org_id: t.orgId, list: 'internal', source: 'call notes' });
    const states = json(await get(`${base}/state?state=NY`)).items;
    expect(states.map((e: { e164: string }) => e.e164)).toEqual([numbers[1]]);
    expect(json(await get(`${base}/national`)).items).toEqual([]);
    expect(json(await get(`/admin/orgs/${other.orgId}/suppression/internal`)).items).toHaveLength(
      1,
    );
    expect((await get(`${base}/nope`)).statusCode).toBe(422);
    expect((await get('/admin/orgs/org_0000000000000000/suppression/internal')).statusCode).toBe(
      404,
    );
  });
});

describe('auth, bad input and where the lists live', () => {
  const paths = (t: Tenant) => [
    '/admin/orgs',
    `/admin/orgs/${t.orgId}/keys`,
    `/admin/keys/${t.keyId}`,
    `/admin/orgs/${t.orgId}/campaigns`,
    `/admin/orgs/${t.orgId}/campaigns/${t.code}/numbers`,
    `/admin/orgs/${t.orgId}/calls`,
    `/admin/orgs/${t.orgId}/touches`,
    `/admin/orgs/${t.orgId}/consents`,
    `/admin/orgs/${t.orgId}/suppression/internal`,
  ];

  it('answers 401 with no admin token or a wrong one, and 404 on the public listener', async () => {
    const t = await createTenant(h);
    for (const p of paths(t)) {
      expect((await get(p, null)).statusCode, p).toBe(401);
      expect((await get(p, `${ADMIN_TOKEN}x`)).statusCode, p).toBe(401);
      const pub = await h.app.inject({
        method: 'GET',
        url: p,
        headers: { authorization: `Bearer ${t.key}` },
      });
      expect(pub.statusCode, p).toBe(404);
    }
  });

  it('answers 422 on the query field for a bad limit, cursor or time, in every list', async () => {
    const t = await createTenant(h);
    for (const p of paths(t).filter((x) => !x.startsWith('/admin/keys/'))) {
      for (const [q, field] of [
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['limit=ten', 'limit'],
        ['cursor=%21%21', 'cursor'],
        [`cursor=${Buffer.from('nonsense').toString('base64url')}`, 'cursor'],
      ] as const) {
        const res = await get(`${p}?${q}`);
        expect(res.statusCode, `${p}?${q}`).toBe(422);
        expect(json(res).detail[0].loc, `${p}?${q}`).toEqual(['query', field]);
      }
    }
    for (const p of [`/admin/orgs/${t.orgId}/calls`, `/admin/orgs/${t.orgId}/touches`]) {
      const res = await get(`${p}?since=yesterday`);
      expect(res.statusCode).toBe(422);
      expect(json(res).detail[0].loc).toEqual(['query', 'since']);
    }
  });

  it('serves its own OpenAPI document and docs page on the admin listener', async () => {
    const res = await h.admin.inject({ method: 'GET', url: '/admin/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = json(res);
    expect(doc.info.title).toMatch(/admin/i);
    expect(doc.paths['/admin/orgs'].get.summary).toMatch(/List organizations/);
    expect(doc.paths['/admin/orgs/{org_id}/calls'].get.parameters.map((x: any) => x.name)).toEqual(
      expect.arrayContaining(['org_id', 'limit', 'cursor', 'campaign', 'since', 'until']),
    );
    expect(doc.paths['/admin/orgs'].post).toBeDefined();
    expect(doc.paths['/admin/openapi.json']).toBeUndefined();
    const ui = await h.admin.inject({ method: 'GET', url: '/admin/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toMatch(/html/);
    const pub = json(await h.app.inject({ method: 'GET', url: '/docs/json' }));
    expect(Object.keys(pub.paths).some((p) => p.startsWith('/admin'))).toBe(false);
  });

  it('answers what /admin/openapi.json says, list by list', async () => {
    h.clock.set(WEEKDAY_MORNING_ET);
    const t = await createTenant(h, { overflow: true });
    const s = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 'v-doc', gclid: 'G' }));
    await recordCall(h, t, { to: s.tracking_number });
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, {
      config: { caller_id: '+12125550100' },
    });
    const contact = freshContact();
    await grant(h, t.orgId, contact);
    const body = { to_e164: contact, channel: 'call', consent_basis: 'pewc' };
    expect((await touch(h, t.key, t.code, body)).statusCode).toBe(202);
    // No consent on file: a blocked touch, whose dispatch is null.
    await touch(h, t.key, t.code, { ...body, to_e164: freshContact() });
    await adminCall(
      h,
      'PUT',
      `/admin/orgs/${t.orgId}/suppression/internal/${encodeURIComponent(freshContact())}`,
      {},
    );
    const doc = json(await h.admin.inject({ method: 'GET', url: '/admin/openapi.json' }));
    const cases: [string, string, TSchema][] = [
      ['/admin/orgs', '/admin/orgs', OrgItem],
      [`/admin/orgs/${t.orgId}/keys`, '/admin/orgs/{org_id}/keys', KeyItem],
      [`/admin/orgs/${t.orgId}/campaigns`, '/admin/orgs/{org_id}/campaigns', CampaignItem],
      [
        `/admin/orgs/${t.orgId}/campaigns/${t.code}/numbers`,
        '/admin/orgs/{org_id}/campaigns/{code}/numbers',
        NumberItem,
      ],
      [`/admin/orgs/${t.orgId}/calls`, '/admin/orgs/{org_id}/calls', CallItem],
      [`/admin/orgs/${t.orgId}/touches`, '/admin/orgs/{org_id}/touches', TouchItem],
      [`/admin/orgs/${t.orgId}/consents`, '/admin/orgs/{org_id}/consents', ConsentEventItem],
      [
        `/admin/orgs/${t.orgId}/suppression/internal`,
        '/admin/orgs/{org_id}/suppression/{list}',
        SuppressionEntryItem,
      ],
    ];
    for (const [url, path, item] of cases) {
      const page = json(await get(url));
      expect(page.items.length, url).toBeGreaterThan(0);
      expect([...Value.Errors(pageOfItems(item), page)], url).toEqual([]);
      const documented = doc.paths[path].get.responses['200'].content['application/json'].schema;
      expect(Object.keys(documented.properties.items.items.properties).sort(), path).toEqual(
        Object.keys((item as unknown as { properties: object }).properties).sort(),
      );
    }
  });
});
