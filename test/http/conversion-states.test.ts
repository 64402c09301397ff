import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdPlatforms } from '../../src/adapters/ad-platforms/index.js';
import { SecretBox } from '../../src/domain/conversions/secrets.js';
import type { Platform } from '../../src/domain/conversions/vocabulary.js';
import { UploadWorker } from '../../src/workers/uploads.js';
import {
  attemptsOf,
  createDestination,
  destinationCall,
  TEST_SECRETS_KEY,
  uploadsOf,
  useUploads,
} from '../helpers/conversions.js';
import { CREDS, type Seen } from '../helpers/fake-ad-platforms.js';
import { createTenant, dni, json, type Tenant, useHarness } from '../helpers/harness.js';
import { recordCall, report } from '../helpers/reports.js';
import { allowPrivateTargets, createWebhook } from '../helpers/webhooks.js';

/** Everything the service logs in this file, at trace level (the token check reads it). */
const logged: string[] = [];
const h = useHarness({
  logger: pino(
    { level: 'trace' },
    new Writable({
      write(chunk, _enc, done) {
        logged.push(String(chunk));
        done();
      },
    }),
  ),
  privateDatabase: 'the upload worker claims every organization’s uploads',
});
const u = useUploads(h);
afterEach(() => {
  u.fake.script = () => null;
  u.fake.dropReply = () => false;
  u.fake.googleActionReadyAt = 0;
  u.fake.rotateMicrosoftRefreshTokens = false;
});

const CALLER = '+12125550142';
let seq = 0;
const SESSION: Record<Platform, Record<string, string>> = {
  google_ads: { gclid: 'G-lost' },
  meta: { fbc: 'fb.1.1700000000000.lost' },
  microsoft_ads: { landing_url: 'https://shop.example/?msclkid=ms-lost' },
  ga4: { landing_url: 'https://shop.example/?_ga=GA1.1.5550001.1700000000' },
};
const UPLOAD_PATH: Record<Platform, RegExp> = {
  google_ads: /:uploadClickConversions$/,
  meta: /\/events$/,
  microsoft_ads: /\/OfflineConversions\/Apply$/,
  ga4: /\/mp\/collect$/,
};
const RETRACT_PATH = /:uploadConversionAdjustments$|\/OfflineConversionAdjustments\/Apply$/;

/** Drops the answer of the first `n` requests matching `path`: they are applied all the same. */
function loseReplies(path: RegExp, n = 1) {
  let left = n;
  u.fake.dropReply = (s: Seen) => (path.test(s.path) && left-- > 0) || false;
}

async function call(t: Tenant, session: Record<string, string>) {
  const s = json(
    await dni(h, t.key, { campaign_code: t.code, visitor_id: `v-${seq++}`, ...session }),
  );
  return recordCall(h, t, { to: s.tracking_number, from: CALLER });
}

async function verdict(t: Tenant, callId: string, disposition: 'success' | 'rejected') {
  const res = await report(h, t.key, t.code, {
    call_id: callId,
    report_id: `r-${seq++}`,
    disposition,
  });
  expect(res.statusCode).toBe(201);
}

/** Rounds until nothing is due, moving the clock past each retry (never past `hours`). */
async function settle(hours = 2) {
  for (let i = 0; i < 20; i++) {
    const n = await u.worker.tick();
    if (n === 0) {
      h.clock.advance(hours * 3600);
      if ((await u.worker.tick()) === 0) return;
    }
  }
}

const held = (p: Platform) =>
  ({
    google_ads: u.fake.google,
    meta: u.fake.meta,
    microsoft_ads: u.fake.microsoft,
    ga4: u.fake.ga4,
  })[p];

describe('a lost reply: the platform applied it, the retry finds it there', () => {
  for (const [platform, after] of [
    ['google_ads', 'retracted'],
    ['microsoft_ads', 'retracted'],
    ['meta', 'not_retractable'],
    ['ga4', 'not_retractable'],
  ] as const) {
    it(`${platform}: sent once, and a later rejected report ends ${after}`, async () => {
      h.clock.set('2026-03-02T15:00:00Z');
      const t = await createTenant(h);
      const d = await createDestination(h, t.orgId, platform);
      const before = held(platform).length;
      const callId = await call(t, SESSION[platform]);
      await verdict(t, callId, 'success');
      loseReplies(UPLOAD_PATH[platform]);
      const requests = () =>
        u.fake.requests.filter((r) => UPLOAD_PATH[platform].test(r.path)).length;
      const sentBefore = requests();
      expect(await u.worker.tick()).toBe(1);
      await settle();
      // The platform holds exactly one, whatever the fake's own deduplication.
      expect(held(platform).length).toBe(before + 1);
      const [row] = await uploadsOf(h, t.orgId, d.destination_id);
      expect(row).toMatchObject({ call_id: callId, kind: 'conversion', status: 'sent' });
      const attempts = await attemptsOf(h, t.orgId, d.destination_id);
      if (platform === 'ga4') {
        // GA4 counts a close_convert_lead twice: a request it received is not sent again.
        expect(requests() - sentBefore).toBe(1);
        expect(row.reason).toMatch(/GA4 received the request but its answer was lost/);
        expect(attempts.map((a) => a.outcome)).toEqual(['sent']);
      } else {
        expect(requests() - sentBefore).toBe(2);
        expect(attempts.map((a) => a.outcome)).toEqual(['sent', 'retry']);
        expect(attempts[1].reason).toMatch(/no complete answer came back/);
      }
      if (platform === 'google_ads')
        expect(row.reason).toBe('Google already held it (ORDER_ID_ALREADY_IN_USE)');

      await verdict(t, callId, 'rejected');
      await settle();
      const rows = await uploadsOf(h, t.orgId, d.destination_id);
      const conversion = rows.find((r) => r.kind === 'conversion');
      expect(conversion.status).toBe(after);
      if (after === 'retracted') {
        expect(rows.find((r) => r.kind === 'retraction')).toMatchObject({ status: 'sent' });
      } else {
        expect(rows).toHaveLength(1);
      }
    });
  }
});

describe('retractions', () => {
  for (const platform of ['google_ads', 'microsoft_ads'] as const) {
    it(`${platform}: a retraction whose reply is lost ends retracted on the retry`, async () => {
      h.clock.set('2026-03-02T15:00:00Z');
      const t = await createTenant(h);
      const d = await createDestination(h, t.orgId, platform);
      const callId = await call(t, SESSION[platform]);
      await verdict(t, callId, 'success');
      await settle();
      await verdict(t, callId, 'rejected');
      loseReplies(RETRACT_PATH);
      const adjustments = u.fake.requests.filter((r) => RETRACT_PATH.test(r.path)).length;
      await settle();
      expect(u.fake.requests.filter((r) => RETRACT_PATH.test(r.path)).length - adjustments).toBe(2);
      const rows = await uploadsOf(h, t.orgId, d.destination_id);
      expect(rows.map((r) => [r.kind, r.status]).sort()).toEqual([
        ['conversion', 'retracted'],
        ['retraction', 'sent'],
      ]);
      if (platform === 'google_ads') {
        expect(rows.find((r) => r.kind === 'retraction').reason).toBe(
          'Google had already retracted it (CONVERSION_ALREADY_RETRACTED)',
        );
      }
    });
  }

  it('a conversion recorded failed after a lost reply is retracted: Google holds it', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads');
    const callId = await call(t, SESSION.google_ads);
    await verdict(t, callId, 'success');
    loseReplies(UPLOAD_PATH.google_ads);
    expect(await u.worker.tick()).toBe(1);
    // The retry is refused outright (the credentials were revoked meanwhile): final.
    u.fake.script = (s) =>
      UPLOAD_PATH.google_ads.test(s.path)
        ? {
            status: 403,
            body: { error: { code: 403, status: 'PERMISSION_DENIED', message: 'denied' } },
          }
        : null;
    h.clock.advance(3600);
    expect(await u.worker.tick()).toBe(1);
    u.fake.script = () => null;
    expect((await uploadsOf(h, t.orgId, d.destination_id))[0]).toMatchObject({
      status: 'failed',
      reason_code: 'auth_failed',
    });
    await verdict(t, callId, 'rejected');
    await settle();
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    expect(rows.map((r) => [r.kind, r.status]).sort()).toEqual([
      ['conversion', 'retracted'],
      ['retraction', 'sent'],
    ]);
  });

  it('a conversion that failed outright is not retracted: nothing is sent for it', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads');
    const callId = await call(t, { gclid: 'CLICK_NOT_FOUND-1' });
    await verdict(t, callId, 'success');
    await settle();
    await verdict(t, callId, 'rejected');
    const before = u.fake.requests.length;
    await settle();
    expect(u.fake.requests.length).toBe(before);
    expect(await uploadsOf(h, t.orgId, d.destination_id)).toMatchObject([
      { kind: 'conversion', status: 'failed', reason_code: 'CLICK_NOT_FOUND' },
    ]);
  });
});

describe('GA4 is never sent the same call twice', () => {
  it('replay after a success sends nothing', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'ga4');
    const callId = await call(t, SESSION.ga4);
    await verdict(t, callId, 'success');
    await settle();
    const before = u.fake.ga4.length;
    const res = await destinationCall(
      h,
      'POST',
      `/admin/orgs/${t.orgId}/conversion-destinations/${d.destination_id}/replay`,
      { call_id: callId },
    );
    expect(res.statusCode).toBe(202);
    expect(json(res).queued).toBe(0);
    await settle();
    expect(u.fake.ga4.length).toBe(before);
    expect((await uploadsOf(h, t.orgId, d.destination_id))[0].status).toBe('sent');
  });
});

describe('Microsoft refresh tokens rotate', () => {
  it('the new refresh token is stored sealed, and the next refresh uses it (the old is refused)', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    u.fake.rotateMicrosoftRefreshTokens = true;
    u.fake.expireTokens();
    const t = await createTenant(h, { numbers: 2 });
    const d = await createDestination(h, t.orgId, 'microsoft_ads');
    const first = await call(t, { landing_url: 'https://shop.example/?msclkid=ms-rot-1' });
    await verdict(t, first, 'success');
    await settle();
    const stored = async () => {
      const [row] = await h.store.query<{ secrets: string }>(
        'select secrets from conversion_destinations where id = $1',
        [d.destination_id],
      );
      return new SecretBox(TEST_SECRETS_KEY).open(row!.secrets);
    };
    const rotated = (await stored()).refresh_token!;
    expect(rotated).toMatch(/^M\.R3_BAY\.rotated-/);
    expect((await stored()).client_secret).toBe(CREDS.microsoft.client_secret);
    // A new process (nothing in memory), and Microsoft has retired the first refresh token.
    const fresh = new UploadWorker({
      repos: h.deps.repos,
      platforms: createAdPlatforms(u.fake.urls(), 5_000, () => h.clock.now()),
      box: new SecretBox(TEST_SECRETS_KEY),
      clock: h.clock,
      logger: pino({ level: 'silent' }),
    });
    const second = await call(t, { landing_url: 'https://shop.example/?msclkid=ms-rot-2' });
    await verdict(t, second, 'success');
    expect(await fresh.tick()).toBe(1);
    expect(u.fake.seenRefreshTokens.at(-1)).toBe(rotated);
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent']);
    expect((await stored()).refresh_token).not.toBe(rotated);
  });
});

describe('retryable by time', () => {
  it('TOO_RECENT_CONVERSION_ACTION is retried at the time Google names, then sent', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    u.fake.googleActionReadyAt = Date.parse('2026-03-02T18:30:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads');
    const callId = await call(t, { gclid: 'G-too-recent' });
    await verdict(t, callId, 'success');
    expect(await u.worker.tick()).toBe(1);
    const [row] = await uploadsOf(h, t.orgId, d.destination_id);
    // "Try importing again in 4 hours."
    expect(row).toMatchObject({
      status: 'pending',
      reason_code: 'TOO_RECENT_CONVERSION_ACTION',
      next_attempt_at: '2026-03-02T19:00:00.000Z',
    });
    h.clock.set('2026-03-02T18:59:59Z');
    expect(await u.worker.tick()).toBe(0);
    h.clock.set('2026-03-02T19:00:00Z');
    expect(await u.worker.tick()).toBe(1);
    expect((await uploadsOf(h, t.orgId, d.destination_id))[0]).toMatchObject({ status: 'sent' });
  });
});

describe('a platform that quotes the token in its error', () => {
  it('the token is in no API answer, attempt, webhook or log line', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h, { numbers: 2 });
    allowPrivateTargets(h);
    await createWebhook(h, t.orgId, 'http://127.0.0.1:9/conversions');
    const meta = await createDestination(h, t.orgId, 'meta');
    const google = await createDestination(h, t.orgId, 'google_ads');
    let quoted = '';
    u.fake.script = (s) => {
      if (/\/events$/.test(s.path)) {
        return {
          status: 400,
          body: {
            error: {
              message: `Invalid OAuth access token - Cannot parse access token: ${s.body.access_token}`,
              type: 'OAuthException',
              code: 190,
              fbtrace_id: 'A9',
            },
          },
        };
      }
      if (UPLOAD_PATH.google_ads.test(s.path)) {
        quoted = String(s.headers.authorization).replace(/^Bearer /, '');
        return {
          status: 400,
          body: {
            error: {
              code: 400,
              status: 'INVALID_ARGUMENT',
              message: `Request had invalid credentials ${s.headers.authorization} (developer token ${s.headers['developer-token']})`,
            },
          },
        };
      }
      return null;
    };
    const callId = await call(t, { fbc: 'fb.1.1.leak', gclid: 'G-leak' });
    await verdict(t, callId, 'success');
    await settle();
    expect(quoted).toMatch(/^ya29\./);
    const answers = [
      ...(await uploadsOf(h, t.orgId, meta.destination_id)),
      ...(await uploadsOf(h, t.orgId, google.destination_id)),
      ...(await attemptsOf(h, t.orgId, meta.destination_id)),
      ...(await attemptsOf(h, t.orgId, google.destination_id)),
    ].map((x) => JSON.stringify(x));
    expect(answers.join('\n')).toMatch(
      /Invalid OAuth access token - Cannot parse access token: \[redacted\]/,
    );
    const events = await h.store.query<{ payload: unknown }>(
      "select payload from webhook_events where org_id = $1 and type = 'conversion.upload_failed'",
      [t.orgId],
    );
    expect(events).toHaveLength(2);
    const everything = [
      ...answers,
      ...events.map((e) => JSON.stringify(e.payload)),
      ...logged,
    ].join('\n');
    for (const secret of [CREDS.meta.access_token, CREDS.google.developer_token, quoted]) {
      expect(everything).not.toContain(secret);
    }
  });
});

describe('answers that never arrive whole are retried, never sent', () => {
  for (const how of ['huge', 'endless'] as const) {
    it(`${how === 'huge' ? 'a 50 MB answer' : 'a body that never ends'}: pending, maybe applied, then sent`, async () => {
      h.clock.set('2026-03-02T15:00:00Z');
      const t = await createTenant(h);
      const d = await createDestination(h, t.orgId, 'google_ads');
      const callId = await call(t, { gclid: `G-${how}` });
      await verdict(t, callId, 'success');
      let once = true;
      u.fake.script = (s) => {
        if (!UPLOAD_PATH.google_ads.test(s.path) || !once) return null;
        once = false;
        return how;
      };
      expect(await u.worker.tick()).toBe(1);
      const [row] = await uploadsOf(h, t.orgId, d.destination_id);
      expect(row).toMatchObject({
        status: 'pending',
        reason_code: how === 'huge' ? 'answer_too_large' : 'no_answer',
      });
      expect(row.reason).toMatch(
        how === 'huge' ? /longer than 4194304 bytes/ : /did not end within 5000 ms/,
      );
      // Google may hold it: a rejected report would retract it, whatever its status.
      const [state] = await h.store.query<{ maybe_applied: boolean }>(
        'select maybe_applied from conversion_uploads where id = $1',
        [row.upload_id],
      );
      expect(state!.maybe_applied).toBe(true);
      await settle();
      expect((await uploadsOf(h, t.orgId, d.destination_id))[0]).toMatchObject({ status: 'sent' });
    });
  }
});
