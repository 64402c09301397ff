import { describe, expect, it } from 'vitest';
import { fieldsOf, useCliSuite } from '../helpers/cli.js';
import { ADMIN_TOKEN, adminCall, dni, freshCode, freshNumbers, json } from '../helpers/harness.js';

const suite = useCliSuite();
const { admin, quiet, newOrg } = suite;

describe('org', () => {
  it('create prints aligned fields and stores what the flags say', async () => {
    const r = await admin([
      'org',
      'create',
      '--name',
      'Acme',
      '--tracking-enabled',
      '--rate-limit',
      '50',
    ]);
    expect(r).toMatchObject({ code: 0, err: '' });
    const f = fieldsOf(r.out);
    expect(f).toMatchObject({
      name: 'Acme',
      tracking_enabled: 'true',
      dni_rate_limit_per_minute: '50',
      created_at: new Date(suite.h.clock.now()).toISOString(),
    });
    expect(await adminCall(suite.h, 'GET', `/admin/orgs/${f.org_id}`)).toMatchObject({
      name: 'Acme',
      tracking_enabled: true,
      dni_rate_limit_per_minute: 50,
    });
  });

  it('create -q prints the org id only; tracking stays off unless asked', async () => {
    const id = await quiet(['org', 'create', '--name', 'Quiet']);
    expect(id).toMatch(/^org_/);
    expect(await adminCall(suite.h, 'GET', `/admin/orgs/${id}`)).toMatchObject({
      name: 'Quiet',
      tracking_enabled: false,
      dni_rate_limit_per_minute: null,
    });
  });

  it('--json prints the API answer byte for byte', async () => {
    const id = await newOrg();
    const r = await admin(['org', 'show', id, '--json']);
    const api = await suite.h.admin.inject({
      url: `/admin/orgs/${id}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(r).toEqual({ code: 0, out: `${api.body}\n`, err: '' });
  });

  it('show prints null as -', async () => {
    const id = await quiet(['org', 'create', '--name', 'Nulls']);
    const r = await admin(['org', 'show', id]);
    expect(fieldsOf(r.out)).toMatchObject({ org_id: id, dni_rate_limit_per_minute: '-' });
  });

  it('update changes only the given fields; --no-rate-limit clears the limit', async () => {
    const id = await quiet([
      'org',
      'create',
      '--name',
      'Old',
      '--tracking-enabled',
      '--rate-limit',
      '9',
    ]);
    const r = await admin(['org', 'update', id, '--tracking-disabled', '--no-rate-limit']);
    expect(fieldsOf(r.out)).toMatchObject({
      name: 'Old',
      tracking_enabled: 'false',
      dni_rate_limit_per_minute: '-',
    });
    expect(await quiet(['org', 'update', id, '--name', 'New', '--tracking-enabled'])).toBe(id);
    expect(await adminCall(suite.h, 'GET', `/admin/orgs/${id}`)).toMatchObject({
      name: 'New',
      tracking_enabled: true,
      dni_rate_limit_per_minute: null,
    });
  });
});

describe('key', () => {
  it('create shows the api_key apart with a store-it-now note, and the key works', async () => {
    const org = await newOrg();
    const numbers = freshNumbers(2);
    const code = freshCode();
    await quiet([
      'campaign',
      'create',
      org,
      '--code',
      code,
      '--name',
      'C',
      '--numbers',
      numbers.join(','),
    ]);
    const r = await admin(['key', 'create', org, '--scopes', 'enroll,execute', '--label', 'site']);
    expect(r).toMatchObject({ code: 0, err: '' });
    const [head, note] = r.out.split('\n\n');
    expect(fieldsOf(head!)).toMatchObject({
      org_id: org,
      scopes: 'enroll, execute',
      label: 'site',
    });
    expect(note).toMatch(/shown once, store it now/);
    const apiKey = /^ {4}(\S+)$/m.exec(r.out)![1]!;
    const res = await dni(suite.h, apiKey, { campaign_code: code, visitor_id: 'v1' });
    expect(res.statusCode).toBe(201);
    expect(numbers).toContain(json(res).tracking_number);
  });

  it('create -q prints the api_key; --expires-at is passed through', async () => {
    const org = await newOrg();
    const r = await admin([
      'key',
      'create',
      org,
      '--scopes',
      'enroll',
      '--expires-at',
      '2027-01-01T00:00:00Z',
      '--json',
    ]);
    const key = JSON.parse(r.out);
    expect(key).toMatchObject({ scopes: ['enroll'], expires_at: '2027-01-01T00:00:00.000Z' });
    const apiKey = await quiet(['key', 'create', org, '--scopes', 'execute']);
    expect(apiKey).not.toBe(key.api_key);
    expect(apiKey.length).toBeGreaterThan(20);
  });

  it('scopes replaces the scopes; -q prints the key id', async () => {
    const org = await newOrg();
    const key = JSON.parse(
      (await admin(['key', 'create', org, '--scopes', 'enroll', '--json'])).out,
    );
    expect(await quiet(['key', 'scopes', key.key_id, '--scopes', 'execute, enroll'])).toBe(
      key.key_id,
    );
    const r = await admin(['key', 'scopes', key.key_id, '--scopes', 'execute']);
    expect(fieldsOf(r.out)).toMatchObject({ key_id: key.key_id, scopes: 'execute' });
  });

  it('revoke stops the key at once', async () => {
    const org = await newOrg();
    const key = JSON.parse(
      (await admin(['key', 'create', org, '--scopes', 'enroll', '--json'])).out,
    );
    const r = await admin(['key', 'revoke', key.key_id]);
    expect(fieldsOf(r.out)).toMatchObject({
      revoked_at: new Date(suite.h.clock.now()).toISOString(),
    });
    expect(
      (await dni(suite.h, key.api_key, { campaign_code: 'zzz', visitor_id: 'v' })).statusCode,
    ).toBe(401);
  });

  it('rotate issues a new key; the old one stops after the grace', async () => {
    const org = await newOrg();
    const old = JSON.parse(
      (await admin(['key', 'create', org, '--scopes', 'enroll', '--json'])).out,
    );
    const r = await admin(['key', 'rotate', old.key_id, '--grace-seconds', '60']);
    expect(r.out).toMatch(/shown once, store it now/);
    const [head] = r.out.split('\n\n');
    expect(fieldsOf(head!)).toMatchObject({
      replaces: old.key_id,
      old_key_stops_at: new Date(suite.h.clock.now() + 60_000).toISOString(),
    });
    const next = fieldsOf(head!).key_id!;
    const apiKey = await quiet(['key', 'rotate', next]);
    expect(apiKey).toMatch(/\S{20,}/);
  });
});
