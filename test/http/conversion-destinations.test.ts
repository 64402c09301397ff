import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  createDestination,
  DESTINATION_BODIES,
  destinationCall,
  uploadsOf,
  useUploads,
} from '../helpers/conversions.js';
import { CREDS } from '../helpers/fake-ad-platforms.js';
import { createTenant, dni, json, useHarness } from '../helpers/harness.js';
import { recordCall, report } from '../helpers/reports.js';

/** Everything the service writes to its log during this file, at trace level. */
const logged: string[] = [];
const logger = pino(
  { level: 'trace' },
  new Writable({
    write(chunk, _enc, done) {
      logged.push(String(chunk));
      done();
    },
  }),
);
const h = useHarness({
  logger,
  privateDatabase: 'the upload worker claims every organization’s uploads',
});
const u = useUploads(h);
const base = (orgId: string) => `/admin/orgs/${orgId}/conversion-destinations`;
const ALL_SECRETS = Object.values(CREDS).flatMap((c) => Object.values(c));
/** Every answer the admin API gave in this file, for the secrets check at the end. */
const answers: string[] = [];

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
  const res = await destinationCall(h, method, url, payload);
  answers.push(res.body);
  return res;
}

describe('secrets', () => {
  it('are never answered after creation: masked in the answer, the list and the item', async () => {
    const t = await createTenant(h);
    const created = await call('POST', base(t.orgId), {
      platform: 'google_ads',
      name: 'G',
      ...DESTINATION_BODIES.google_ads,
    });
    expect(created.statusCode).toBe(201);
    const d = json(created);
    expect(d.secrets).toEqual({
      developer_token: '••••b3aa',
      client_id: '••••.com',
      client_secret: '••••3d2e',
      refresh_token: '••••8c9d',
    });
    expect(d.settings).toEqual({
      customer_id: '1234567890',
      conversion_action: '987654321',
      api: 'google_ads_api',
    });
    const list = json(await call('GET', base(t.orgId)));
    expect(list.destinations.map((x: any) => x.destination_id)).toEqual([d.destination_id]);
    const one = json(await call('GET', `${base(t.orgId)}/${d.destination_id}`));
    expect(one.secrets).toEqual(d.secrets);
    expect(one.uploads).toEqual({
      last_success_at: null,
      pending: 0,
      sent: 0,
      failed: 0,
      retracted: 0,
      not_retractable: 0,
      failed_by_reason: {},
    });
    // Stored sealed: the row itself holds none of them.
    const [row] = await h.store.query<{ secrets: string }>(
      'select secrets from conversion_destinations where id = $1',
      [d.destination_id],
    );
    for (const s of Object.values(CREDS.google)) expect(row!.secrets).not.toContain(s);
  });

  it('a PATCH of one secret replaces it and keeps the others', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'meta');
    const res = await call('PATCH', `${base(t.orgId)}/${d.destination_id}`, {
      secrets: { access_token: 'wrong-token-000000000000' },
      name: 'Renamed',
    });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ name: 'Renamed', secrets: { access_token: '••••0000' } });
    const back = await call('PATCH', `${base(t.orgId)}/${d.destination_id}`, {
      secrets: CREDS.meta,
    });
    expect(back.statusCode).toBe(200);
  });
});

describe('test command', () => {
  it('Google: validateOnly, nothing recorded', async () => {
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads');
    const before = u.fake.google.length;
    const res = await call('POST', `${base(t.orgId)}/${d.destination_id}/test`);
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ platform: 'google_ads', ok: true, status_code: 200 });
    const last = u.fake.requests.at(-1)!;
    expect(last.body.validateOnly).toBe(true);
    expect(u.fake.google.length).toBe(before);
  });

  it('Meta: with test_event_code, into the test events only', async () => {
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'meta');
    const before = u.fake.meta.length;
    const res = await call('POST', `${base(t.orgId)}/${d.destination_id}/test`);
    expect(json(res)).toMatchObject({ platform: 'meta', ok: true });
    expect(u.fake.requests.at(-1)!.body.test_event_code).toBe('TEST123');
    expect(u.fake.meta.length).toBe(before);
  });

  it('GA4: the debug endpoint’s validation messages come back', async () => {
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'ga4', {
      secrets: { api_secret: 'not-the-right-secret' },
    });
    const res = await call('POST', `${base(t.orgId)}/${d.destination_id}/test`);
    expect(json(res)).toMatchObject({
      ok: false,
      result: { state: 'failed', detail: 'Unknown api_secret' },
    });
  });
});

describe('retry and replay', () => {
  it('retry sends a failed upload again with the same key; replay re-sends, the platform keeps one', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads');
    u.fake.script = (s) =>
      s.path.endsWith(':uploadClickConversions')
        ? {
            status: 400,
            body: {
              error: {
                code: 400,
                status: 'INVALID_ARGUMENT',
                message: 'Request contains an invalid argument.',
              },
            },
          }
        : null;
    const s = json(
      await dni(h, t.key, { campaign_code: t.code, visitor_id: 'v-rt', gclid: 'G-rt' }),
    );
    const callId = await recordCall(h, t, { to: s.tracking_number, from: '+12125550199' });
    await report(h, t.key, t.code, { call_id: callId, report_id: 'rt-1', disposition: 'success' });
    await u.worker.tick();
    u.fake.script = () => null;
    const [failed] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(failed).toMatchObject({ status: 'failed', reason_code: 'rejected_by_platform' });
    expect(failed.reason).toMatch(/INVALID_ARGUMENT/);
    const before = u.fake.google.length;
    const retry = await call('POST', `${base(t.orgId)}/${d.destination_id}/retry`, {
      upload_id: failed.upload_id,
    });
    expect([retry.statusCode, json(retry)]).toEqual([
      202,
      { destination_id: d.destination_id, queued: 1 },
    ]);
    await u.worker.tick();
    expect((await uploadsOf(h, t.orgId, d.destination_id))[0]).toMatchObject({
      status: 'sent',
      attempts: 2,
    });
    const replay = await call('POST', `${base(t.orgId)}/${d.destination_id}/replay`, {
      call_id: callId,
    });
    expect(json(replay).queued).toBe(1);
    await u.worker.tick();
    expect(u.fake.google.slice(before).map((c) => c.orderId)).toEqual([callId]);
    const sent = u.fake.requests.filter(
      (r) => r.path.endsWith(':uploadClickConversions') && r.body.conversions[0].gclid === 'G-rt',
    );
    expect(sent.map((r) => r.body.conversions[0].orderId)).toEqual([callId, callId, callId]);
  });

  it('an upload id that is not failed is 404', async () => {
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads');
    const res = await call('POST', `${base(t.orgId)}/${d.destination_id}/retry`, {
      upload_id: 'cup_000000000000aaaaaaaaaaaaaaaaaaaa',
    });
    expect([res.statusCode, json(res)]).toEqual([404, { detail: 'upload_not_found' }]);
  });
});

describe('401', () => {
  it('every destination route wants the admin token, before reading the body', async () => {
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'meta');
    for (const [method, suffix] of [
      ['POST', ''],
      ['GET', ''],
      ['GET', `/${d.destination_id}`],
      ['PATCH', `/${d.destination_id}`],
      ['DELETE', `/${d.destination_id}`],
      ['GET', `/${d.destination_id}/uploads`],
      ['POST', `/${d.destination_id}/test`],
      ['POST', `/${d.destination_id}/retry`],
      ['POST', `/${d.destination_id}/replay`],
    ] as const) {
      for (const headers of [{}, { authorization: 'Bearer adm_wrong' }]) {
        const res = await h.admin.inject({
          method,
          url: `${base(t.orgId)}${suffix}`,
          headers,
          payload: 'not json',
        });
        expect([method, suffix, res.statusCode, res.body]).toEqual([
          method,
          suffix,
          401,
          '{"detail":"invalid_admin_token"}',
        ]);
      }
    }
  });
});

describe('tenancy', () => {
  it('another organization’s destination is 404 like an unknown one, on every route', async () => {
    const a = await createTenant(h);
    const b = await createTenant(h);
    const d = await createDestination(h, a.orgId, 'meta');
    for (const [method, suffix, payload] of [
      ['GET', '', undefined],
      ['PATCH', '', { name: 'x' }],
      ['DELETE', '', undefined],
      ['GET', '/uploads', undefined],
      ['GET', '/attempts', undefined],
      ['POST', '/test', undefined],
      ['POST', '/retry', {}],
      ['POST', '/replay', {}],
    ] as const) {
      for (const id of [d.destination_id, 'cdst_000000000000aaaaaaaaaaaaaaaaaaaa']) {
        const res = await call(method, `${base(b.orgId)}/${id}${suffix}`, payload);
        expect([method, suffix, res.statusCode, json(res)]).toEqual([
          method,
          suffix,
          404,
          { detail: 'destination_not_found' },
        ]);
      }
    }
    expect(json(await call('GET', base(b.orgId))).destinations).toEqual([]);
    // Still there for its own organization.
    expect((await call('GET', `${base(a.orgId)}/${d.destination_id}`)).statusCode).toBe(200);
  });
});

describe('bad settings are 422 at creation, in FastAPI’s shape, and write nothing', () => {
  const cases: [string, Record<string, unknown>, (string | number)[], string][] = [
    [
      'a malformed customer id',
      {
        platform: 'google_ads',
        settings: { ...DESTINATION_BODIES.google_ads.settings, customer_id: '123-45' },
      },
      ['body', 'settings', 'customer_id'],
      'value_error',
    ],
    ['an unknown platform', { platform: 'tiktok' }, ['body', 'platform'], 'literal_error'],
    [
      'a campaign code of another organization',
      { campaigns: ['zzz'] },
      ['body', 'campaigns', 0],
      'value_error',
    ],
    [
      'a currency that is not ISO 4217',
      { value: { amount: 1, currency: 'XYZ' } },
      ['body', 'value', 'currency'],
      'value_error',
    ],
    [
      'a negative value',
      { value: { amount: -1, currency: 'USD' } },
      ['body', 'value', 'amount'],
      'greater_than_equal',
    ],
    [
      'a secret missing for the platform',
      { secrets: { developer_token: 'x' } },
      ['body', 'secrets', 'client_id'],
      'value_error',
    ],
    [
      'a secret with a CR/LF pasted along (every request would fail)',
      {
        secrets: {
          ...DESTINATION_BODIES.google_ads.secrets,
          refresh_token: '1//token-0123456789\r\n',
        },
      },
      ['body', 'secrets', 'refresh_token'],
      'value_error',
    ],
  ];
  for (const [what, override, loc, type] of cases) {
    it(what, async () => {
      const t = await createTenant(h);
      const other = await createTenant(h);
      const body = {
        platform: 'google_ads',
        name: 'G',
        ...DESTINATION_BODIES.google_ads,
        ...override,
      };
      if (what.includes('another')) (body as any).campaigns = [other.code];
      const res = await call('POST', base(t.orgId), body);
      expect(res.statusCode).toBe(422);
      const detail = json(res).detail as any[];
      expect(
        detail.some((e) => e.type === type && JSON.stringify(e.loc) === JSON.stringify(loc)),
      ).toBe(true);
      for (const e of detail)
        expect(Object.keys(e).slice(0, 4)).toEqual(['type', 'loc', 'msg', 'input']);
      expect(json(await call('GET', base(t.orgId))).destinations).toEqual([]);
    });
  }

  it('every failing field is listed, not only the first', async () => {
    const t = await createTenant(h);
    const res = await call('POST', base(t.orgId), {
      platform: 'meta',
      name: 'M',
      settings: { pixel_id: 'abc', colour: 'red' },
      secrets: {},
    });
    expect(json(res).detail.map((e: any) => e.loc.join('.'))).toEqual([
      'body.settings.pixel_id',
      'body.settings.colour',
      'body.secrets.access_token',
    ]);
  });

  it('an unknown organization is 404', async () => {
    const res = await call('POST', base('org_000000000000aaaaaaaaaaaaaaaaaaaa'), {
      platform: 'ga4',
      name: 'x',
      ...DESTINATION_BODIES.ga4,
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('secrets in nothing the service writes', () => {
  it('not in any answer, log line, metric or export of this whole file', async () => {
    // One more full run: a conversion uploaded, a failure, an export.
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads');
    const callId = await recordCall(h, t, { to: t.numbers[1], from: '+12125550111' });
    await report(h, t.key, t.code, { call_id: callId, report_id: 'sec-1', disposition: 'success' });
    await u.worker.tick();
    answers.push(JSON.stringify(await uploadsOf(h, t.orgId, d.destination_id)));
    const metrics = await h.admin.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer adm_test_token_0123456789abcdef' },
    });
    expect(metrics.body).toContain('conversion_uploads_total');
    const exported = await h.admin.inject({
      method: 'GET',
      url: `/admin/orgs/${t.orgId}/campaigns/${t.code}/exports/conversions?format=google-ads`,
      headers: { authorization: 'Bearer adm_test_token_0123456789abcdef' },
    });
    const audit = await call('GET', `/admin/orgs/${t.orgId}/audit`);
    const everything = [...answers, ...logged, metrics.body, exported.body, audit.body].join('\n');
    expect(answers.length).toBeGreaterThan(40);
    expect(logged.length).toBeGreaterThan(10);
    for (const s of ALL_SECRETS) expect(everything).not.toContain(s);
  });
});
