import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildAdminApp } from '../../src/app.js';
import { apiVersionCheck } from '../../src/runtime.js';
import { MIGRATIONS_DIR } from '../../src/store/db.js';
import { checkConformance } from '../helpers/conformance.js';
import {
  createDestination,
  DESTINATION_BODIES,
  destinationCall,
  uploadsOf,
  useUploads,
} from '../helpers/conversions.js';
import { CREDS, type Seen } from '../helpers/fake-ad-platforms.js';
import {
  ADMIN_TOKEN,
  adminCall,
  createTenant,
  dni,
  json,
  type Tenant,
  useHarness,
} from '../helpers/harness.js';
import { recordCall, report } from '../helpers/reports.js';
import {
  dataManagerType,
  ga4Problems,
  googleAdsType,
  metaProblems,
  microsoftProblems,
  protoProblems,
} from '../helpers/vendor-definitions.js';

/**
 * What reaches each platform, end to end (a DNI session with a click id, a call, a buyer's
 * success report, the upload worker), judged by the vendor's own published definition; the
 * destination settings that choose the API, its version and the consent sent; and the warning
 * when a version nears the day its vendor retires it.
 */
const h = useHarness({ privateDatabase: 'the upload worker claims every organization’s uploads' });
const u = useUploads(h);
afterEach(() => {
  u.fake.script = () => null;
});

const { developer_token: _unused, ...GOOGLE_NO_DEV_TOKEN } = CREDS.google;
const GOOGLE = { customer_id: '123-456-7890', conversion_action: '987654321' };
let seq = 0;

async function convert(t: Tenant, session: Record<string, unknown>, disposition = 'success') {
  const s = json(
    await dni(h, t.key, { campaign_code: t.code, visitor_id: `vr-${seq++}`, ...session }),
  );
  const callId = await recordCall(h, t, { to: s.tracking_number, from: '+12125550142' });
  const res = await report(h, t.key, t.code, {
    call_id: callId,
    report_id: `vr-${seq++}`,
    disposition,
  });
  expect(res.statusCode).toBe(201);
  return callId;
}

async function drain() {
  let n = 0;
  while ((await u.worker.tick()) > 0 && n < 20) n++;
}

/** The requests to one path that the platform fakes saw from index `from` on. */
const sent = (from: number, path: RegExp): Seen[] =>
  u.fake.requests.slice(from).filter((s) => path.test(s.path));

describe('each request as sent, judged by the vendor’s definition', () => {
  it('Google, by default: one Data Manager events:ingest that decodes against its protos', async () => {
    h.clock.set('2026-11-20T15:04:05Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      value: { amount: 120.5, currency: 'USD' },
      settings: { ...GOOGLE, login_customer_id: '111-222-3333', consent: 'granted' },
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    expect(d.api).toEqual({ name: 'data_manager', version: 'v1', retires_on: null, warning: null });
    const from = u.fake.requests.length;
    const callId = await convert(t, { gclid: 'EAIaIQ-dm1' });
    await drain();
    const [req, ...more] = sent(from, /^\/datamanager\//);
    expect(more).toEqual([]);
    expect(req!.path).toBe('/datamanager/v1/events:ingest');
    expect(req!.headers.authorization).toMatch(/^Bearer ya29\./);
    expect(protoProblems(dataManagerType('IngestEventsRequest'), req!.body)).toEqual([]);
    expect(req!.body).toMatchObject({
      destinations: [
        {
          operatingAccount: { accountType: 'GOOGLE_ADS', accountId: '1234567890' },
          loginAccount: { accountType: 'GOOGLE_ADS', accountId: '1112223333' },
          productDestinationId: '987654321',
        },
      ],
      events: [
        {
          transactionId: callId,
          eventTimestamp: '2026-11-20T15:04:05.000Z',
          adIdentifiers: { gclid: 'EAIaIQ-dm1' },
          eventSource: 'PHONE',
          conversionValue: 120.5,
          currency: 'USD',
        },
      ],
      consent: { adUserData: 'CONSENT_GRANTED', adPersonalization: 'CONSENT_GRANTED' },
      validateOnly: false,
      encoding: 'HEX',
    });
    // Nothing went to the Google Ads API.
    expect(sent(from, /^\/google\//)).toEqual([]);
    const [row] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(row).toMatchObject({ call_id: callId, status: 'sent', attempts: 1 });
  });

  it('Google Ads API mode: one uploadClickConversions at v25 that decodes against its protos', async () => {
    h.clock.set('2026-11-20T15:04:05Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: { ...GOOGLE, api: 'google_ads_api', consent: 'denied' },
    });
    expect(d.api).toMatchObject({ name: 'google_ads_api', version: 'v25', warning: null });
    const from = u.fake.requests.length;
    await convert(t, { gclid: 'EAIaIQ-ads1' });
    await drain();
    const [req, ...more] = sent(from, /^\/(google|datamanager)\//);
    expect(more).toEqual([]);
    const m = /^\/google\/v25\/customers\/(\d{10}):uploadClickConversions$/.exec(req!.path);
    expect(m?.[1]).toBe('1234567890');
    const problems = protoProblems(googleAdsType('UploadClickConversionsRequest'), {
      ...req!.body,
      customerId: m![1],
    });
    expect(problems).toEqual([]);
    expect(req!.body.conversions[0].consent).toEqual({ adUserData: 'DENIED' });
  });

  it("Meta: one events request; the SDK's normalize() leaves each event unchanged", async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'meta', {
      value: { amount: 80, currency: 'EUR' },
      settings: { pixel_id: '1122334455', consent: 'denied' },
    });
    expect(d.api).toMatchObject({ name: 'meta_graph', version: 'v24.0', warning: null });
    const from = u.fake.requests.length;
    await convert(t, { fbc: 'fb.1.1763650000000.AbCd', fbp: 'fb.1.1763650000000.99' });
    await drain();
    const [req, ...more] = sent(from, /^\/meta\//);
    expect(more).toEqual([]);
    expect(req!.path).toBe('/meta/v24.0/1122334455/events');
    expect(Object.keys(req!.body).sort()).toEqual(['access_token', 'data']);
    expect(req!.body.data).toHaveLength(1);
    for (const e of req!.body.data) expect(metaProblems(e)).toEqual([]);
    expect(req!.body.data[0]).toMatchObject({
      data_processing_options: ['LDU'],
      data_processing_options_country: 0,
      data_processing_options_state: 0,
    });
  });

  it("Microsoft: one OfflineConversions/Apply whose rows match Microsoft's reference, with the hashed phone", async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    await createDestination(h, t.orgId, 'microsoft_ads', {
      value: { amount: 50, currency: 'USD' },
    });
    const from = u.fake.requests.length;
    await convert(t, { landing_url: 'https://shop.example/?msclkid=ms-vr-1' });
    await drain();
    const [req, ...more] = sent(from, /^\/microsoft\//);
    expect(more).toEqual([]);
    expect(req!.path).toBe('/microsoft/CampaignManagement/v13/OfflineConversions/Apply');
    expect(Object.keys(req!.body)).toEqual(['OfflineConversions']);
    for (const row of req!.body.OfflineConversions)
      expect(microsoftProblems('OfflineConversion', row)).toEqual([]);
    expect(req!.body.OfflineConversions[0].HashedPhoneNumber).toMatch(/^[0-9a-f]{64}$/);
  });

  it('GA4: one collect whose body matches the Measurement Protocol reference, with session_id and consent', async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    await createDestination(h, t.orgId, 'ga4', {
      settings: { measurement_id: 'G-TEST12345', consent: 'granted' },
    });
    const from = u.fake.requests.length;
    await convert(t, {
      landing_url:
        'https://shop.example/?_ga=GA1.1.1234567.1763650000&_ga_TEST12345=GS2.1.s1763650111$o1$g1$t1763650200',
    });
    await drain();
    const [req, ...more] = sent(from, /^\/ga4\//);
    expect(more).toEqual([]);
    expect(req!.path).toBe('/ga4/mp/collect');
    expect(ga4Problems(req!.body)).toEqual([]);
    expect(req!.body.consent).toEqual({ ad_user_data: 'GRANTED', ad_personalization: 'GRANTED' });
    expect(req!.body.events[0].params.session_id).toBe('1763650111');
  });
});

describe('Google through the Data Manager API', () => {
  it('a fast-fail refusal naming one event: that one fails with the reason, the others are sent', async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: GOOGLE,
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    const good = await convert(t, { gclid: 'EAIaIQ-good' });
    const bad = await convert(t, { gclid: 'INVALID-gclid' });
    const from = u.fake.requests.length;
    const kept = u.fake.dataManager.length;
    await u.worker.tick();
    const reqs = sent(from, /^\/datamanager\//);
    // The refused request held both; Google kept neither, so the good one went again alone.
    expect(reqs.map((r) => r.body.events.map((e: any) => e.adIdentifiers.gclid).sort())).toEqual([
      ['EAIaIQ-good', 'INVALID-gclid'],
      ['EAIaIQ-good'],
    ]);
    expect(u.fake.dataManager.slice(kept).map((e) => e.transactionId)).toEqual([good]);
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    const byCall = Object.fromEntries(rows.map((r: any) => [r.call_id, r]));
    expect(byCall[good]).toMatchObject({ status: 'sent' });
    expect(byCall[bad]).toMatchObject({ status: 'failed', reason_code: 'rejected_by_platform' });
    expect(byCall[bad].reason).toContain('INVALID_FORMAT');
  });

  it('test: validateOnly, nothing kept, and the request decodes against the protos', async () => {
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: GOOGLE,
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    const from = u.fake.requests.length;
    const kept = u.fake.dataManager.length;
    const res = await destinationCall(
      h,
      'POST',
      `/admin/orgs/${t.orgId}/conversion-destinations/${d.destination_id}/test`,
    );
    expect(res.statusCode).toBe(200);
    const [req] = sent(from, /^\/datamanager\//);
    expect(req!.body.validateOnly).toBe(true);
    expect(protoProblems(dataManagerType('IngestEventsRequest'), req!.body)).toEqual([]);
    expect(u.fake.dataManager.length).toBe(kept);
  });

  it('a rejected report retracts through the Ads API conversion adjustments, which decode against v25', async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', { settings: GOOGLE });
    const callId = await convert(t, { gclid: 'EAIaIQ-retract' });
    await drain();
    const from = u.fake.requests.length;
    const res = await report(h, t.key, t.code, {
      call_id: callId,
      report_id: `vr-${seq++}`,
      disposition: 'rejected',
    });
    expect(res.statusCode).toBe(201);
    await drain();
    const [req, ...more] = sent(from, /^\/(google|datamanager)\//);
    expect(more).toEqual([]);
    const m = /^\/google\/v25\/customers\/(\d{10}):uploadConversionAdjustments$/.exec(req!.path);
    expect(m).not.toBeNull();
    expect(
      protoProblems(googleAdsType('UploadConversionAdjustmentsRequest'), {
        ...req!.body,
        customerId: m![1],
      }),
    ).toEqual([]);
    expect(req!.body.conversionAdjustments[0]).toMatchObject({
      adjustmentType: 'RETRACTION',
      orderId: callId,
    });
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    expect(rows.find((r: any) => r.kind === 'conversion')).toMatchObject({ status: 'retracted' });
  });
});

describe('Data Manager answers, in Google’s error model', () => {
  /** One conversion to a fresh Data Manager destination, the fake answering `answer` first. */
  async function answered(answer: { status: number; body?: unknown }) {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: GOOGLE,
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    let first = true;
    u.fake.script = (s) => {
      if (!s.path.startsWith('/datamanager/') || !first) return null;
      first = false;
      return answer;
    };
    await convert(t, { gclid: `EAIaIQ-ans-${seq}` });
    await u.worker.tick();
    const [row] = await uploadsOf(h, t.orgId, d.destination_id);
    return row;
  }
  const status = (code: number, name: string, reason: string) => ({
    status: code,
    body: {
      error: {
        code,
        status: name,
        message: `${name} from Google`,
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason,
            domain: 'datamanager.googleapis.com',
          },
        ],
      },
    },
  });

  it('ALREADY_EXISTS: the conversion is there, sent', async () => {
    expect(await answered(status(409, 'ALREADY_EXISTS', 'ALREADY_EXISTS'))).toMatchObject({
      status: 'sent',
    });
  });

  it('PERMISSION_DENIED: refused credentials, final, with Google’s words', async () => {
    const row = await answered(status(403, 'PERMISSION_DENIED', 'PERMISSION_DENIED'));
    expect(row).toMatchObject({ status: 'failed', reason_code: 'auth_failed' });
    expect(row.reason).toContain('PERMISSION_DENIED');
    expect(row.reason).toContain('https://www.googleapis.com/auth/datamanager');
  });

  it('UNAVAILABLE: retried later', async () => {
    const row = await answered(status(503, 'UNAVAILABLE', 'INTERNAL_ERROR'));
    expect(row).toMatchObject({ status: 'pending', reason_code: 'server_error', attempts: 1 });
  });

  it('an access token Google stops accepting is refreshed once and the event goes through', async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: GOOGLE,
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    await convert(t, { gclid: 'EAIaIQ-refresh' });
    u.fake.expireTokens();
    const refreshes = u.fake.tokenRefreshes.google;
    await drain();
    expect(u.fake.tokenRefreshes.google).toBe(refreshes + 1);
    const [row] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(row).toMatchObject({ status: 'sent' });
  });

  it('a retraction without a developer token is not sent, and says why', async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: GOOGLE,
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    const callId = await convert(t, { gclid: 'EAIaIQ-noretract' });
    await drain();
    const from = u.fake.requests.length;
    await report(h, t.key, t.code, {
      call_id: callId,
      report_id: `vr-${seq++}`,
      disposition: 'rejected',
    });
    await drain();
    expect(sent(from, /^\/(google|datamanager)\//)).toEqual([]);
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    const retraction = rows.find((r: any) => r.kind === 'retraction');
    expect(retraction).toMatchObject({ status: 'failed', reason_code: 'not_retractable' });
    expect(retraction.reason).toContain('developer_token');
  });
});

describe('settings: 422 in FastAPI’s shape, nothing written', () => {
  const base = (t: Tenant) => `/admin/orgs/${t.orgId}/conversion-destinations`;
  const bad = async (t: Tenant, body: Record<string, unknown>) => {
    const res = await destinationCall(h, 'POST', base(t), body);
    expect(res.statusCode).toBe(422);
    const list = json(await destinationCall(h, 'GET', base(t)));
    expect(list.destinations).toEqual([]);
    return json(res).detail.map((e: any) => [e.loc.join('.'), e.msg]);
  };

  it('consent, api and api_version are checked; a retired version names its date', async () => {
    const t = await createTenant(h);
    const google = (settings: Record<string, string>, secrets = CREDS.google) => ({
      platform: 'google_ads',
      name: 'g',
      settings: { ...GOOGLE, ...settings },
      secrets,
    });
    expect(await bad(t, google({ consent: 'maybe' }))).toEqual([
      ['body.settings.consent', 'Value error, must be one of granted, denied, unspecified'],
    ]);
    expect(await bad(t, google({ api: 'grpc' }))).toEqual([
      ['body.settings.api', 'Value error, must be one of data_manager, google_ads_api'],
    ]);
    expect(await bad(t, google({ api: 'google_ads_api', api_version: 'v21' }))).toEqual([
      ['body.settings.api_version', 'Value error, v21 was retired on 2026-08-05; use one of v25'],
    ]);
    expect(await bad(t, google({ api: 'google_ads_api' }, GOOGLE_NO_DEV_TOKEN as never))).toEqual([
      ['body.secrets.developer_token', 'Value error, google_ads needs secrets.developer_token'],
    ]);
    expect(
      await bad(t, {
        ...DESTINATION_BODIES.ga4,
        platform: 'ga4',
        name: 'g',
        settings: { measurement_id: 'G-TEST12345', api_version: 'v1' },
      }),
    ).toEqual([['body.settings.api_version', 'Value error, not a setting of ga4']]);
  });

  it('a PATCH to google_ads_api without a developer token kept is refused', async () => {
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: GOOGLE,
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    const res = await destinationCall(h, 'PATCH', `${base(t)}/${d.destination_id}`, {
      settings: { api: 'google_ads_api' },
    });
    expect(res.statusCode).toBe(422);
    expect(json(res).detail[0].loc).toEqual(['body', 'secrets', 'developer_token']);
    const kept = json(await destinationCall(h, 'GET', `${base(t)}/${d.destination_id}`));
    expect(kept.settings.api).toBeUndefined();
  });
});

describe('versions that tell before they die', () => {
  it('Meta Graph v21.0 (served until 2027-01-21): silent before 60 days, a warning within, retired after', async () => {
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'meta', {
      settings: { pixel_id: '1122334455', api_version: 'v21.0' },
    });
    const admin = await buildAdminApp(
      { ...h.deps, readiness: [apiVersionCheck(h.deps.repos, h.clock)] },
      ADMIN_TOKEN,
    );
    checkConformance(admin, 'admin');
    const readyz = async () => {
      const res = await admin.inject({
        method: 'GET',
        url: '/admin/readyz',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      return { code: res.statusCode, body: json(res) };
    };
    const apiOf = async () =>
      json(
        await destinationCall(
          h,
          'GET',
          `/admin/orgs/${t.orgId}/conversion-destinations/${d.destination_id}`,
        ),
      ).api;
    const listed = async () =>
      json(await destinationCall(h, 'GET', `/admin/orgs/${t.orgId}/conversion-destinations`))
        .destinations[0].api;
    try {
      h.clock.set('2026-11-21T12:00:00Z'); // 60 days and a half before
      expect(await apiOf()).toEqual({
        name: 'meta_graph',
        version: 'v21.0',
        retires_on: '2027-01-21',
        warning: null,
      });
      expect(await readyz()).toEqual({
        code: 200,
        body: { status: 'ok', checks: { ad_platform_versions: { status: 'ok' } } },
      });

      h.clock.set('2026-11-28T12:00:00Z');
      const soon =
        'meta_graph v21.0 is retired on 2027-01-21 (in 54 days): set settings.api_version to v24.0';
      expect((await apiOf()).warning).toBe(soon);
      expect((await listed()).warning).toBe(soon);
      expect(await readyz()).toEqual({
        code: 200,
        body: {
          status: 'ok',
          checks: {
            ad_platform_versions: {
              status: 'ok',
              detail:
                '1 destination(s) on meta_graph v21.0, retired on 2027-01-21 (in 54 days): set settings.api_version (docs/conversions.md)',
            },
          },
        },
      });

      h.clock.set('2027-01-21T00:00:00Z');
      expect((await apiOf()).warning).toBe(
        'meta_graph v21.0 was retired on 2027-01-21: uploads fail until settings.api_version is v24.0',
      );
      const r = await readyz();
      expect(r.code).toBe(200);
      expect(r.body.status).toBe('degraded');
      expect(r.body.checks.ad_platform_versions.status).toBe('degraded');

      // Moving to the default ends the warning.
      const patched = json(
        await destinationCall(
          h,
          'PATCH',
          `/admin/orgs/${t.orgId}/conversion-destinations/${d.destination_id}`,
          {
            settings: { api_version: 'v24.0' },
          },
        ),
      );
      expect(patched.api).toMatchObject({ version: 'v24.0', warning: null });
      expect((await readyz()).body.status).toBe('ok');
    } finally {
      await admin.close();
    }
  });

  it('the organization admin list answer carries api for every platform', async () => {
    const t = await createTenant(h);
    for (const p of ['google_ads', 'meta', 'microsoft_ads', 'ga4'] as const)
      await createDestination(h, t.orgId, p);
    const list = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/conversion-destinations`);
    const byPlatform = Object.fromEntries(list.destinations.map((x: any) => [x.platform, x.api]));
    expect(byPlatform).toEqual({
      google_ads: { name: 'google_ads_api', version: 'v25', retires_on: null, warning: null },
      meta: { name: 'meta_graph', version: 'v24.0', retires_on: null, warning: null },
      microsoft_ads: { name: 'microsoft_ads', version: 'v13', retires_on: null, warning: null },
      ga4: null,
    });
  });
});

describe('migration 0040: Google destinations made before the Data Manager default', () => {
  it('keep the Google Ads API, said explicitly; one that chose already is left alone', async () => {
    const t = await createTenant(h);
    const older = await createDestination(h, t.orgId, 'google_ads', { settings: GOOGLE });
    const chose = await createDestination(h, t.orgId, 'google_ads', {
      settings: { ...GOOGLE, api: 'data_manager' },
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    const meta = await createDestination(h, t.orgId, 'meta');
    // As the older code stored it: no api setting.
    await h.store.query(
      `update conversion_destinations set settings = settings - 'api' where id = $1`,
      [older.destination_id],
    );
    const sql = readFileSync(
      join(MIGRATIONS_DIR, '0040_google_destinations_keep_ads_api.sql'),
      'utf8',
    );
    await h.store.query(sql, []);
    const settingsOf = async (id: string) =>
      json(await destinationCall(h, 'GET', `/admin/orgs/${t.orgId}/conversion-destinations/${id}`))
        .settings;
    expect((await settingsOf(older.destination_id)).api).toBe('google_ads_api');
    expect((await settingsOf(chose.destination_id)).api).toBe('data_manager');
    expect((await settingsOf(meta.destination_id)).api).toBeUndefined();
  });
});
