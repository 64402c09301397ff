import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildAdminApp } from '../../src/app.js';
import { apiVersionCheck } from '../../src/runtime.js';
import { MIGRATIONS_DIR } from '../../src/store/db.js';
import { checkConformance } from '../helpers/conformance.js';
import {
  createDestination,
  DESTINATION_BODIES,
  destinationCall,
  useUploads,
} from '../helpers/conversions.js';
import { CREDS } from '../helpers/fake-ad-platforms.js';
import {
  ADMIN_TOKEN,
  adminCall,
  createTenant,
  json,
  type Tenant,
  useHarness,
} from '../helpers/harness.js';

/**
 * The settings that choose a destination's API, its version and its consent: refused when
 * wrong, with nothing written; the warning in the GET, the list and /admin/readyz when a
 * version nears the day its vendor retires it (the clock set before, within and past it);
 * and migration 0040, which keeps older Google destinations on the Google Ads API.
 */
// Private: /admin/readyz counts the destinations of the whole database.
const h = useHarness({ privateDatabase: 'readyz counts every organization’s destinations' });
useUploads(h);

const { developer_token: _unused, ...GOOGLE_NO_DEV_TOKEN } = CREDS.google;
const GOOGLE = { customer_id: '123-456-7890', conversion_action: '987654321' };

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
      join(MIGRATIONS_DIR, '0032_google_destinations_keep_ads_api.sql'),
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
