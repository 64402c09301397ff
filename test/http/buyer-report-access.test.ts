import { beforeAll, describe, expect, it } from 'vitest';
import {
  adminCall,
  createTenant,
  type Harness,
  json,
  type Tenant,
  useHarness,
} from '../helpers/harness.js';
import { deref, responseSchema } from '../helpers/openapi.js';
import { auditRows, eventRows, recordCall, report } from '../helpers/reports.js';

const h: Harness = useHarness();
let t: Tenant;
let callId: string;
beforeAll(async () => {
  t = await createTenant(h);
  callId = await recordCall(h, t);
});

const valid = () => ({ call_id: callId, report_id: 'r', disposition: 'success' });

/** Nothing but the audit lines it already had: refused requests write nothing. */
async function untouched(orgId: string, auditBefore: number) {
  expect(await eventRows(h, orgId)).toHaveLength(0);
  expect(await auditRows(h, orgId)).toHaveLength(auditBefore);
}

describe('401', () => {
  it.each([
    ['missing', undefined],
    ['malformed', 'Bearer nope'],
    ['unknown', `Bearer svc_live_${'0'.repeat(40)}`],
    ['basic scheme', 'Basic dXNlcjpwYXNz'],
  ])('answers invalid_api_key for a %s key, before looking at the body', async (_, auth) => {
    const res = await h.app.inject({
      method: 'POST',
      url: `/dni/campaigns/${t.code}/buyer-report`,
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
      payload: '{not json',
    });
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('{"detail":"invalid_api_key"}');
    expect(res.headers['www-authenticate']).toBe('Bearer');
  });

  it('answers a revoked key like an unknown one', async () => {
    const key = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/keys`, { scopes: ['execute'] });
    await adminCall(h, 'POST', `/admin/keys/${key.key_id}/revoke`);
    const res = await report(h, key.api_key, t.code, valid());
    expect(res.statusCode).toBe(401);
    expect(res.body).toBe('{"detail":"invalid_api_key"}');
  });
});

describe('403', () => {
  it('answers tracking_disabled before insufficient_scope and before validation', async () => {
    const off = await createTenant(h, { trackingEnabled: false, scopes: ['enroll'] });
    const res = await report(h, off.key, off.code, { bad: true });
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe('{"detail":"tracking_disabled"}');
  });

  it('answers tracking_disabled for an execute key of a disabled organization', async () => {
    const off = await createTenant(h, { scopes: ['execute'] });
    const offCall = await recordCall(h, off);
    await adminCall(h, 'PATCH', `/admin/orgs/${off.orgId}`, { tracking_enabled: false });
    const audited = (await auditRows(h, off.orgId)).length;
    const res = await report(h, off.key, off.code, {
      call_id: offCall,
      report_id: 'r',
      disposition: 'success',
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe('{"detail":"tracking_disabled"}');
    await untouched(off.orgId, audited);
  });

  it('answers insufficient_scope to an enroll-only key, before validation', async () => {
    const enroll = await createTenant(h, { scopes: ['enroll'] });
    const res = await report(h, enroll.key, enroll.code, 'not json');
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe('{"detail":"insufficient_scope"}');
  });
});

describe('404 and tenancy', () => {
  it("answers another organization's campaign exactly like a missing one", async () => {
    const other = await createTenant(h);
    const theirs = await report(h, t.key, other.code, valid());
    const missing = await report(h, t.key, 'nop', valid());
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe('{"detail":"campaign_not_found"}');
    expect(missing.body).toBe(theirs.body);
    expect(Object.keys(theirs.headers).sort()).toEqual(Object.keys(missing.headers).sort());
  });

  it("answers another organization's call and another campaign's call like a missing call", async () => {
    const mine = await createTenant(h);
    const other = await createTenant(h);
    const otherOrgCall = await recordCall(h, other);
    await adminCall(h, 'POST', `/admin/orgs/${mine.orgId}/campaigns`, {
      code: 'sib',
      name: 'Sibling',
      numbers: ['+14155559921'],
    });
    const siblingCall = await recordCall(h, mine, { to: '+14155559921' });
    const audited = (await auditRows(h, mine.orgId)).length;
    const post = (id: string) =>
      report(h, mine.key, mine.code, { call_id: id, report_id: `r-${id}`, disposition: 'success' });
    const answers = [
      await post(otherOrgCall),
      await post(siblingCall),
      await post('call_00000000000000000000000000000000'),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe('{"detail":"call_not_found"}');
      expect(Object.keys(res.headers).sort()).toEqual(Object.keys(answers[2]!.headers).sort());
    }
    await untouched(mine.orgId, audited);
    expect(await eventRows(h, other.orgId)).toHaveLength(0);
  });

  it('validates the body before looking for the campaign', async () => {
    const res = await report(h, t.key, 'nop', { call_id: '' });
    expect(res.statusCode).toBe(422);
  });
});

describe('422 validation', () => {
  const detail = (res: { body: string }) => json(res as never).detail;

  it('lists every missing field', async () => {
    const res = await report(h, t.key, t.code, {});
    expect(res.statusCode).toBe(422);
    expect(res.body).toBe(
      JSON.stringify({
        detail: ['call_id', 'report_id', 'disposition'].map((f) => ({
          type: 'missing',
          loc: ['body', f],
          msg: 'Field required',
          input: {},
        })),
      }),
    );
  });

  it('reports bounds, the disposition literal and unknown keys together', async () => {
    const audited = (await auditRows(h, t.orgId)).length;
    const res = await report(h, t.key, t.code, {
      call_id: 'c'.repeat(65),
      report_id: '',
      disposition: 'maybe',
      notes: 'n'.repeat(2001),
      org_id: 'org_x',
    });
    expect(res.statusCode).toBe(422);
    expect(detail(res)).toEqual([
      {
        type: 'string_too_long',
        loc: ['body', 'call_id'],
        msg: 'String should have at most 64 characters',
        input: 'c'.repeat(65),
        ctx: { max_length: 64 },
      },
      {
        type: 'string_too_short',
        loc: ['body', 'report_id'],
        msg: 'String should have at least 1 character',
        input: '',
        ctx: { min_length: 1 },
      },
      {
        type: 'literal_error',
        loc: ['body', 'disposition'],
        msg: "Input should be 'success' or 'rejected'",
        input: 'maybe',
        ctx: { expected: "'success' or 'rejected'" },
      },
      {
        type: 'string_too_long',
        loc: ['body', 'notes'],
        msg: 'String should have at most 2000 characters',
        input: 'n'.repeat(2001),
        ctx: { max_length: 2000 },
      },
      {
        type: 'extra_forbidden',
        loc: ['body', 'org_id'],
        msg: 'Extra inputs are not permitted',
        input: 'org_x',
      },
    ]);
    await untouched(t.orgId, audited);
  });

  it('accepts the longest values', async () => {
    const res = await report(h, t.key, t.code, {
      call_id: callId,
      report_id: 'r'.repeat(128),
      disposition: 'rejected',
      notes: 'n'.repeat(2000),
    });
    expect(res.statusCode).toBe(201);
  });

  it('rejects wrong types without coercing', async () => {
    const res = await report(h, t.key, t.code, {
      call_id: 5,
      report_id: null,
      disposition: true,
      notes: 3,
    });
    expect(detail(res).map((e: { type: string; loc: string[] }) => [e.type, e.loc[1]])).toEqual([
      ['string_type', 'call_id'],
      ['string_type', 'report_id'],
      ['literal_error', 'disposition'],
      ['string_type', 'notes'],
    ]);
  });

  it('answers a path campaign_code over 3 characters at ["path","campaign_code"]', async () => {
    const res = await report(h, t.key, 'abcd', valid());
    expect(res.statusCode).toBe(422);
    expect(res.body).toBe(
      '{"detail":[{"type":"string_too_long","loc":["path","campaign_code"],"msg":"String should have at most 3 characters","input":"abcd","ctx":{"max_length":3}}]}',
    );
  });

  it('answers invalid JSON and a non-object body as FastAPI does', async () => {
    const bad = await report(h, t.key, t.code, '{"call_id": ');
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toBe(
      '{"detail":[{"type":"json_invalid","loc":["body",12],"msg":"JSON decode error","input":{},"ctx":{"error":"Expecting value"}}]}',
    );
    const list = await report(h, t.key, t.code, '[1]');
    expect(detail(list)[0]).toMatchObject({ type: 'model_attributes_type', loc: ['body'] });
  });

  it('answers 413 for a body over 64 KiB', async () => {
    const res = await report(h, t.key, t.code, { ...valid(), notes: 'x'.repeat(70_000) });
    expect(res.statusCode).toBe(413);
    expect(res.body).toBe('{"detail":"payload_too_large"}');
  });
});

describe('OpenAPI', () => {
  it('shows every status and body of the endpoint', async () => {
    const doc = json(await h.app.inject({ method: 'GET', url: '/openapi.json' }));
    const path = '/dni/campaigns/{campaign_code}/buyer-report';
    const op = doc.paths[path].post;
    expect(Object.keys(op.responses).sort()).toEqual([
      '200',
      '201',
      '400',
      '401',
      '403',
      '404',
      '413',
      '422',
      '500',
      '503',
    ]);
    const schemaOf = (status: string) => responseSchema(doc, path, status);
    expect(schemaOf('201').properties.created).toMatchObject({ enum: [true] });
    expect(schemaOf('200').properties.created).toMatchObject({ enum: [false] });
    expect(JSON.stringify(schemaOf('404'))).toContain('call_not_found');
    expect(JSON.stringify(schemaOf('404'))).toContain('campaign_not_found');
    expect(JSON.stringify(schemaOf('403'))).toContain('tracking_disabled');
    expect(op.responses['422'].description).toContain('["body","report_id"]');
    expect(deref(doc, op.requestBody.content['application/json'].schema).required).toEqual([
      'call_id',
      'report_id',
      'disposition',
    ]);
    expect(op.security).toEqual([{ bearerAuth: [] }]);
  });
});
