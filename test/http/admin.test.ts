import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAdminToken } from '../../src/config.js';
import {
  ADMIN_TOKEN,
  adminCall,
  createTenant,
  dni,
  freshNumbers,
  json,
  useHarness,
} from '../helpers/harness.js';

const h = useHarness();

const call = (orgId: string, body: object) =>
  h.admin.inject({
    method: 'POST',
    url: `/admin/orgs/${orgId}/calls`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: body,
  });

describe('admin token', () => {
  it.each([
    ['missing', {}],
    ['wrong', { authorization: 'Bearer nope' }],
    ['an API key', { authorization: 'Bearer svc_live_0000000000000000000000000000000000000000' }],
  ])('refuses a %s token with 401', async (_n, headers) => {
    const res = await h.admin.inject({
      method: 'POST',
      url: '/admin/orgs',
      headers,
      payload: { name: 'x' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('{"detail":"invalid_admin_token"}');
  });

  it('creates DATA_DIR/admin-token with mode 0600 when ADMIN_TOKEN is unset, and reads it back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-token-'));
    const token = resolveAdminToken({ adminToken: undefined, dataDir: dir }, true);
    expect(token).toMatch(/^adm_[0-9a-f]{48}$/);
    expect(statSync(join(dir, 'admin-token')).mode & 0o777).toBe(0o600);
    expect(resolveAdminToken({ adminToken: undefined, dataDir: dir }, false)).toBe(token);
    expect(resolveAdminToken({ adminToken: 'env-wins', dataDir: dir }, false)).toBe('env-wins');
  });
});

describe('organizations and keys', () => {
  it('issues a key once, stores only its hash, and audits it', async () => {
    const org = await adminCall(h, 'POST', '/admin/orgs', { name: 'Acme' });
    expect(org).toMatchObject({
      name: 'Acme',
      tracking_enabled: false,
      dni_rate_limit_per_minute: null,
    });
    const key = await adminCall(h, 'POST', `/admin/orgs/${org.org_id}/keys`, {
      scopes: ['enroll'],
      label: 'web',
    });
    expect(key.api_key).toMatch(/^svc_live_[0-9a-f]{40}$/);
    expect(key).toMatchObject({
      org_id: org.org_id,
      scopes: ['enroll'],
      label: 'web',
      expires_at: null,
    });
    const rows = await h.store.query<Record<string, unknown>>(
      'select * from api_keys where id = $1',
      [key.key_id],
    );
    expect(JSON.stringify(rows)).not.toContain(key.api_key);
    expect(JSON.stringify(rows)).not.toContain(key.api_key.slice(9));
    const audit = await adminCall(h, 'GET', `/admin/orgs/${org.org_id}/audit`);
    expect(audit.items.map((e: { action: string }) => e.action)).toEqual([
      'key.issued',
      'org.created',
    ]);
    expect(JSON.stringify(audit)).not.toContain(key.api_key);
  });

  it('answers 404 for an unknown org or key and 422 for bad bodies', async () => {
    const hdr = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const a = await h.admin.inject({
      method: 'POST',
      url: '/admin/orgs/org_nope/keys',
      headers: hdr,
      payload: { scopes: ['enroll'] },
    });
    expect(a.statusCode).toBe(404);
    expect(a.body).toBe('{"detail":"org_not_found"}');
    const b = await h.admin.inject({
      method: 'POST',
      url: '/admin/keys/key_nope/revoke',
      headers: hdr,
    });
    expect(b.body).toBe('{"detail":"key_not_found"}');
    const c = await h.admin.inject({
      method: 'POST',
      url: '/admin/orgs',
      headers: hdr,
      payload: { name: '', x: 1 },
    });
    expect(c.statusCode).toBe(422);
    expect(json(c).detail.map((e: { type: string }) => e.type)).toEqual([
      'string_too_short',
      'extra_forbidden',
    ]);
    const org = await adminCall(h, 'POST', '/admin/orgs', { name: 'S' });
    const d = await h.admin.inject({
      method: 'POST',
      url: `/admin/orgs/${org.org_id}/keys`,
      headers: hdr,
      payload: { scopes: ['admin'] },
    });
    expect(d.statusCode).toBe(422);
  });

  it('rotates a key: the new key works, the old one until the grace ends', async () => {
    const t = await createTenant(h);
    const rotated = await adminCall(h, 'POST', `/admin/keys/${t.keyId}/rotate`, {
      grace_seconds: 60,
    });
    expect(rotated.api_key).not.toBe(t.key);
    expect(rotated.replaces).toBe(t.keyId);
    expect(
      (await dni(h, rotated.api_key, { campaign_code: t.code, visitor_id: 'n' })).statusCode,
    ).toBe(201);
    expect((await dni(h, t.key, { campaign_code: t.code, visitor_id: 'o' })).statusCode).toBe(201);
    h.clock.advance(60);
    expect((await dni(h, t.key, { campaign_code: t.code, visitor_id: 'o' })).statusCode).toBe(401);
    expect(
      (await dni(h, rotated.api_key, { campaign_code: t.code, visitor_id: 'n' })).statusCode,
    ).toBe(201);
  });
});

describe('campaigns', () => {
  it('creates a campaign with its pool and overflow number and shows it', async () => {
    const org = await adminCall(h, 'POST', '/admin/orgs', { name: 'C' });
    const [n1, n2, over, fwd] = freshNumbers(4);
    const c = await adminCall(h, 'POST', `/admin/orgs/${org.org_id}/campaigns`, {
      code: 'spr',
      name: 'Spring',
      numbers: [n2, n1, n1],
      overflow_number: over,
      forward_to: fwd,
      session_ttl_seconds: 900,
      config: { purpose: 'marketing' },
    });
    expect(c).toMatchObject({
      code: 'spr',
      numbers: [n1, n2].sort(),
      overflow_number: over,
      forward_to: fwd,
      session_ttl_seconds: 900,
      report_window_days: 30,
      config: { purpose: 'marketing' },
    });
    expect(await adminCall(h, 'GET', `/admin/orgs/${org.org_id}/campaigns/spr`)).toEqual(c);
  });

  it('refuses a code taken in the org and a number used anywhere else, writing nothing', async () => {
    const a = await createTenant(h);
    const b = await createTenant(h);
    const hdr = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const dup = await h.admin.inject({
      method: 'POST',
      url: `/admin/orgs/${a.orgId}/campaigns`,
      headers: hdr,
      payload: { code: a.code, name: 'x', numbers: freshNumbers(1) },
    });
    expect(dup.statusCode).toBe(409);
    expect(json(dup)).toEqual({ detail: 'conflict', reason: 'campaign_code_taken' });
    const fresh = freshNumbers(1)[0]!;
    const stolen = await h.admin.inject({
      method: 'POST',
      url: `/admin/orgs/${b.orgId}/campaigns/${b.code}/numbers`,
      headers: hdr,
      payload: { numbers: [fresh, a.numbers[0]] },
    });
    expect(stolen.statusCode).toBe(409);
    expect(json(stolen).reason).toBe(`number_in_use: ${a.numbers[0]}`);
    expect(
      await h.store.query('select 1 from tracking_numbers where e164 = $1', [fresh]),
    ).toHaveLength(0);
  });

  it('rejects numbers that are not possible E.164 numbers', async () => {
    const org = await adminCall(h, 'POST', '/admin/orgs', { name: 'E' });
    const res = await h.admin.inject({
      method: 'POST',
      url: `/admin/orgs/${org.org_id}/campaigns`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { code: 'e1', name: 'x', numbers: ['4155550100', '+1415'] },
    });
    expect(res.statusCode).toBe(422);
    expect(json(res).detail.map((e: { loc: unknown[] }) => e.loc)).toEqual([
      ['body', 'numbers', 0],
      ['body', 'numbers', 1],
    ]);
  });

  it('adds numbers and replaces the pool through PATCH', async () => {
    const t = await createTenant(h, { numbers: 2 });
    const [extra] = freshNumbers(1);
    const added = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/campaigns/${t.code}/numbers`, {
      numbers: [extra],
    });
    expect(added.numbers).toHaveLength(3);
    const patched = await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, {
      numbers: [extra],
      session_ttl_seconds: 600,
    });
    expect(patched).toMatchObject({ numbers: [extra], session_ttl_seconds: 600 });
  });
});

describe('calls and attribution', () => {
  it('attributes to the live session, then the recent holder, then the repeat caller, then the campaign', async () => {
    const t = await createTenant(h, { numbers: 1, ttl: 300 });
    const s = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 'caller' }));
    const live = json(await call(t.orgId, { to: s.tracking_number, from: '+12125550100' }));
    expect(live).toMatchObject({
      campaign_code: t.code,
      dni_session_id: s.dni_session_id,
      attribution: 'session',
    });
    expect(live.call_id).toMatch(/^call_/);

    h.clock.advance(300 + 29 * 60);
    const recent = json(await call(t.orgId, { to: s.tracking_number, from: '+12125550101' }));
    expect(recent).toMatchObject({
      dni_session_id: s.dni_session_id,
      attribution: 'recent_holder',
    });

    h.clock.advance(2 * 60);
    const repeat = json(await call(t.orgId, { to: s.tracking_number, from: '+12125550100' }));
    expect(repeat).toMatchObject({
      dni_session_id: s.dni_session_id,
      attribution: 'repeat_caller',
    });
    const stranger = json(await call(t.orgId, { to: s.tracking_number, from: '+12125550199' }));
    expect(stranger).toMatchObject({
      dni_session_id: null,
      attribution: 'campaign',
      campaign_code: t.code,
    });
  });

  it('takes an explicit started_at and refuses a number of another organization', async () => {
    const a = await createTenant(h, { numbers: 1 });
    const b = await createTenant(h, { numbers: 1 });
    const s = json(await dni(h, a.key, { campaign_code: a.code, visitor_id: 'v' }));
    const past = json(
      await call(a.orgId, {
        to: s.tracking_number,
        from: '+12125550100',
        started_at: new Date(h.clock.now() - 60_000).toISOString(),
      }),
    );
    expect(past.attribution).toBe('campaign');
    const foreign = await call(b.orgId, { to: s.tracking_number, from: '+12125550100' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe('{"detail":"number_not_found"}');
  });
});

describe('metrics', () => {
  it('exposes request counts and latency by route and status', async () => {
    const t = await createTenant(h);
    await dni(h, t.key, { campaign_code: t.code, visitor_id: 'm' });
    const res = await h.admin.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(
      /http_requests_total\{method="POST",route="\/dni\/session",status="201"\} \d+/,
    );
    expect(res.body).toMatch(
      /http_request_duration_seconds_bucket\{le="0.005",method="POST",route="\/dni\/session",status="201"\}/,
    );
    expect(res.body).toContain('process_resident_memory_bytes');
  });
});
