/**
 * Issue 7, point 6, for the admin API: bytes PostgreSQL cannot store or JSON cannot carry are a
 * 422 at their field, never a 500, and nothing is written.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createTenant, json, type Tenant, useHarness } from '../helpers/harness.js';
import { rowCounts } from '../helpers/routes.js';
import { expectSpecShape } from '../helpers/spec-shape.js';

const h = useHarness();
let t: Tenant;
beforeAll(async () => {
  t = await createTenant(h);
});

function admin(method: 'POST' | 'PATCH' | 'PUT' | 'GET', url: string, payload?: string) {
  return h.admin.inject({
    method,
    url,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload }),
  });
}

const campaign = (code: string, extra: string) =>
  `{"code":"${code}","name":"C","numbers":["+14155550999"]${extra}}`;

type Case = [string, 'POST' | 'PATCH' | 'PUT', () => string, string, Record<string, unknown>];

describe('admin bodies with bad bytes', () => {
  it.each<Case>([
    [
      'a NUL in a name',
      'POST',
      () => '/admin/orgs',
      '{"name":"Acme\\u0000"}',
      {
        type: 'value_error',
        loc: ['body', 'name'],
        msg: 'Value error, must not contain NUL characters (\\u0000)',
        input: 'Acme\u0000',
        ctx: { error: {} },
      },
    ],
    [
      'a lone surrogate in a name',
      'POST',
      () => '/admin/orgs',
      '{"name":"\\ud800x"}',
      {
        type: 'string_unicode',
        loc: ['body', 'name'],
        msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
        input: '\ufffdx',
      },
    ],
    [
      'NaN for an integer',
      'PATCH',
      () => `/admin/orgs/${t.orgId}`,
      '{"dni_rate_limit_per_minute":NaN}',
      {
        type: 'finite_number',
        loc: ['body', 'dni_rate_limit_per_minute'],
        msg: 'Input should be a finite number',
        input: 'NaN',
      },
    ],
    [
      '1e400 for a string',
      'PATCH',
      () => `/admin/orgs/${t.orgId}`,
      '{"name":1e400}',
      {
        type: 'string_type',
        loc: ['body', 'name'],
        msg: 'Input should be a valid string',
        input: 'Infinity',
      },
    ],
    [
      'a NUL in a campaign config key',
      'POST',
      () => `/admin/orgs/${t.orgId}/campaigns`,
      campaign('zz1', ',"config":{"caller_id\\u0000":"+14155550100"}'),
      {
        type: 'value_error',
        loc: ['body', 'config', 'caller_id\u0000', '[key]'],
        msg: 'Value error, must not contain NUL characters (\\u0000)',
        input: 'caller_id\u0000',
        ctx: { error: {} },
      },
    ],
    [
      'Infinity deep in a campaign config',
      'POST',
      () => `/admin/orgs/${t.orgId}/campaigns`,
      campaign('zz2', ',"config":{"custom":{"a":{"weight":[1,-Infinity]}}}'),
      {
        type: 'finite_number',
        loc: ['body', 'config', 'custom', 'a', 'weight', 1],
        msg: 'Input should be a finite number',
        input: '-Infinity',
      },
    ],
    [
      'a lone surrogate in consent evidence',
      'PUT',
      () => `/admin/orgs/${t.orgId}/consents/+14155550123`,
      '{"tier":"pewc","evidence":{"ip":"\\udc00"}}',
      {
        type: 'string_unicode',
        loc: ['body', 'evidence', 'ip'],
        msg: 'Input should be a valid string, unable to parse raw data as a unicode string',
        input: '\ufffd',
      },
    ],
  ] as const)(
    'answers %s with one 422 at the field and writes nothing',
    async (_name, method, url, payload, error) => {
      const before = await rowCounts(h.store);
      const res = await admin(method, url(), payload);
      expectSpecShape(res.statusCode, res.headers['content-type'], res.rawPayload);
      expect([res.statusCode, json(res)]).toEqual([422, { detail: [error] }]);
      expect(await rowCounts(h.store)).toEqual(before);
    },
  );

  it('answers a NUL in a path or query parameter with 422, not a database error', async () => {
    const path = await admin('GET', `/admin/orgs/${t.orgId}%00/campaigns/${t.code}`);
    expect(path.statusCode).toBe(422);
    expect(json(path).detail[0]).toMatchObject({ type: 'value_error', loc: ['path', 'org_id'] });
    const query = await admin('GET', `/admin/orgs/${t.orgId}/audit?subject_id=a%00`);
    expect(query.statusCode).toBe(422);
    expect(json(query).detail[0]).toMatchObject({
      type: 'value_error',
      loc: ['query', 'subject_id'],
    });
  });

  it('rejects consent CSV rows with a NUL or an unstorable evidence value, and imports the rest', async () => {
    const csv = [
      'e164,tier,source,evidence',
      `+14155550131,pewc,web\u0000form,`,
      '+14155550132,pewc,web,"{""ip"":""\\u0000""}"',
      '+14155550133,pewc,web,"{""\\ud800"":1}"',
      '+14155550134,pewc,web,"{""ip"":""10.0.0.1""}"',
    ].join('\n');
    const res = await h.admin.inject({
      method: 'POST',
      url: `/admin/orgs/${t.orgId}/consents/import`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/csv' },
      payload: `${csv}\n`,
    });
    expect(res.statusCode).toBe(200);
    const summary = json(res);
    expect([summary.rows, summary.imported, summary.rejected_count]).toEqual([4, 1, 3]);
    expect(JSON.stringify(summary.rejected)).toContain('source: must not contain NUL characters');
    expect(JSON.stringify(summary.rejected)).toContain('evidence: must not contain NUL characters');
  });

  it('answers generated bad values in every campaign and org field without a 5xx', async () => {
    const bad = fc.constantFrom(
      'NaN',
      '-Infinity',
      '1e400',
      '"\\u0000"',
      '"a\\ud800"',
      '{"\\u0000":1}',
      '[NaN]',
      '{"k":"\\udfff"}',
    );
    const field = fc.constantFrom(
      'name',
      'numbers',
      'overflow_number',
      'forward_to',
      'session_ttl_seconds',
      'report_window_days',
      'config',
      'tracking_enabled',
      'dni_rate_limit_per_minute',
    );
    await fc.assert(
      fc.asyncProperty(field, bad, fc.boolean(), async (f, value, isOrg) => {
        const res = isOrg
          ? await admin('PATCH', `/admin/orgs/${t.orgId}`, `{"${f}":${value}}`)
          : await admin('PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, `{"${f}":${value}}`);
        if (res.statusCode !== 422) throw new Error(`${res.statusCode} ${res.body}`);
        expectSpecShape(res.statusCode, res.headers['content-type'], res.rawPayload);
      }),
      { numRuns: 300 },
    );
  });
});
