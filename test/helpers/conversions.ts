import pino from 'pino';
import { afterAll, beforeAll, expect } from 'vitest';
import { createAdPlatforms } from '../../src/adapters/ad-platforms/index.js';
import { SecretBox } from '../../src/domain/conversions/secrets.js';
import type { Platform } from '../../src/domain/conversions/vocabulary.js';
import { UploadWorker } from '../../src/workers/uploads.js';
import { CREDS, FakeAdPlatforms } from './fake-ad-platforms.js';
import { adminCall, dni, type Harness, json, type Tenant } from './harness.js';
import { adminInject } from './outbound.js';
import { recordCall, report } from './reports.js';

export const TEST_SECRETS_KEY = Buffer.alloc(32, 7);

/** Settings and secrets that the fakes accept, per platform. */
export const DESTINATION_BODIES: Record<
  Platform,
  { settings: Record<string, string>; secrets: Record<string, string> }
> = {
  // The Google Ads API: the tests of retries and retractions read its answers. The Data
  // Manager API (the default) has its own tests (conversion-vendor-requests.test.ts).
  google_ads: {
    settings: {
      customer_id: '123-456-7890',
      conversion_action: '987654321',
      api: 'google_ads_api',
    },
    secrets: CREDS.google,
  },
  meta: { settings: { pixel_id: '1122334455', test_event_code: 'TEST123' }, secrets: CREDS.meta },
  microsoft_ads: {
    settings: { customer_id: '2233445', account_id: '55667788', conversion_name: 'Qualified call' },
    secrets: CREDS.microsoft,
  },
  ga4: { settings: { measurement_id: 'G-TEST12345' }, secrets: CREDS.ga4 },
};

export interface Uploads {
  fake: FakeAdPlatforms;
  worker: UploadWorker;
}

/**
 * Fakes of the platforms on 127.0.0.1, the harness's deps pointed at them (as the server
 * would be by GOOGLE_ADS_API_BASE and the rest) and an upload worker on the harness clock.
 */
export function useUploads(h: Harness, box = new SecretBox(TEST_SECRETS_KEY)): Uploads {
  const u = {} as Uploads;
  beforeAll(async () => {
    u.fake = await new FakeAdPlatforms().start();
    u.fake.now = () => h.clock.now();
    const platforms = createAdPlatforms(u.fake.urls(), 5_000, () => h.clock.now());
    h.deps.conversions = { box, platforms };
    u.worker = new UploadWorker({
      repos: h.deps.repos,
      platforms,
      box,
      clock: h.clock,
      logger: h.deps.logger ?? pino({ level: 'silent' }),
      metrics: h.deps.metrics,
    });
  });
  afterAll(async () => {
    await u.fake?.close();
  });
  return u;
}

export async function createDestination(
  h: Harness,
  orgId: string,
  platform: Platform,
  extra: Record<string, unknown> = {},
) {
  return adminCall(h, 'POST', `/admin/orgs/${orgId}/conversion-destinations`, {
    platform,
    name: `${platform} destination`,
    ...DESTINATION_BODIES[platform],
    ...extra,
  });
}

export async function uploadsOf(h: Harness, orgId: string, destinationId: string) {
  const res = await destinationCall(
    h,
    'GET',
    `/admin/orgs/${orgId}/conversion-destinations/${destinationId}/uploads`,
  );
  return json(res).items as any[];
}

export async function attemptsOf(h: Harness, orgId: string, destinationId: string) {
  const res = await destinationCall(
    h,
    'GET',
    `/admin/orgs/${orgId}/conversion-destinations/${destinationId}/attempts`,
  );
  return json(res).attempts as any[];
}

/** An admin request whatever it answers. */
export const destinationCall = adminInject;

/** A Google destination's secrets without a developer token: the Data Manager API only. */
export const GOOGLE_NO_DEV_TOKEN: Record<string, string> = Object.fromEntries(
  Object.entries(CREDS.google).filter(([name]) => name !== 'developer_token'),
);

/**
 * The steps of a conversion's life through the API: a DNI session with a Google click id and a
 * call to its number; a buyer's verdict on the call; the upload worker run until it has
 * nothing left (20 rounds at most).
 */
export function conversionSteps(h: Harness, u: Uploads) {
  let seq = 0;
  return {
    async call(t: Tenant, gclid: string): Promise<string> {
      const s = json(
        await dni(h, t.key, { campaign_code: t.code, visitor_id: `vc-${seq++}`, gclid }),
      );
      return recordCall(h, t, { to: s.tracking_number, from: '+12125550142' });
    },
    async verdict(t: Tenant, callId: string, disposition: 'success' | 'rejected') {
      const res = await report(h, t.key, t.code, {
        call_id: callId,
        report_id: `rc-${seq++}`,
        disposition,
      });
      expect(res.statusCode).toBe(201);
    },
    async drain() {
      let n = 0;
      while ((await u.worker.tick()) > 0 && n < 20) n++;
    },
  };
}
