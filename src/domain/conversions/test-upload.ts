import { errors } from '../../errors.js';
import type { UploadFacts } from './facts.js';
import type { AdPlatforms, ItemResult } from './platform.js';
import type { Destination } from './ports.js';
import { scrubberFor, scrubDeep } from './scrub.js';
import type { SecretBox } from './secrets.js';
import type { Platform } from './vocabulary.js';

/** A conversion that matches no real click: the platform validates it without recording it. */
function sampleFacts(now: Date, d: Destination): UploadFacts {
  return {
    callId: 'call_test',
    conversionAt: new Date(now.getTime() - 3_600_000).toISOString(),
    value: d.value?.amount ?? 1,
    currency: d.value?.currency ?? 'USD',
    gclid: 'TeSter-123-ABCDEFGHIJKLMNOP',
    fbc: `fb.1.${now.getTime()}.TEST`,
    msclkid: 'test-msclkid',
    gaClientId: '1234567890.1234567890',
  };
}

/** What each platform's test request proves when the platform accepts it. */
export const CHECKED: Record<Platform, readonly string[]> = {
  google_ads: [
    'the OAuth client and refresh token (an access token was issued)',
    'access to the customer (and through the manager account when set)',
    'a sample conversion for the conversion action, in validate-only mode (nothing recorded)',
  ],
  meta: [
    'the access token and the pixel (dataset)',
    'a sample Lead event, in Test Events only (settings.test_event_code; nothing counted)',
  ],
  microsoft_ads: [
    'the OAuth client and refresh token (an access token was issued)',
    'the developer token, customer and account (a Campaign Management request)',
    'an offline conversion goal named settings.conversion_name exists in the account',
  ],
  ga4: [
    'the measurement id and api_secret, and a sample event, at the validation endpoint (nothing recorded)',
  ],
};

/**
 * Row answers about the sample's invented click id, not about the destination: in
 * validate-only mode they still prove the credentials, the account and the action.
 */
const SAMPLE_CLICK_CODES = new Set([
  'CLICK_NOT_FOUND',
  'EXPIRED_EVENT',
  'TOO_RECENT_EVENT',
  'CONVERSION_PRECEDES_EVENT',
]);
const aboutSample = (d: Destination, r: ItemResult | undefined) =>
  d.platform === 'google_ads' &&
  r !== undefined &&
  r.state !== 'sent' &&
  r.state !== 'accepted' &&
  (SAMPLE_CLICK_CODES.has(r.code) ||
    /^(UNPARSEABLE_GCLID|CLICK_NOT_FOUND|EXPIRED_EVENT)\b/.test(r.detail));

/**
 * `POST …/test`: one sample conversion in the platform's validate mode (Google
 * `validateOnly`, Meta `test_event_code`, GA4's debug endpoint; Microsoft has none, so a
 * read of its conversion goals checks the credentials, account and goal). Nothing is
 * recorded. The answer says what was checked, and is scrubbed of the destination's secrets.
 * `keep` stores a refresh token the platform rotated during the test.
 */
export async function testDestination(
  destination: Destination,
  box: SecretBox | null,
  platforms: AdPlatforms,
  now: Date,
  keep?: (refreshToken: string, secrets: Record<string, string>) => Promise<void>,
) {
  if (!box) throw errors.secretsKeyMissing();
  const secrets = box.open(destination.secrets);
  const scrub = scrubberFor(secrets);
  const answer = await platforms[destination.platform].send(
    {
      destinationId: destination.id,
      platform: destination.platform,
      settings: destination.settings,
      secrets,
    },
    [
      {
        uploadId: 'test',
        kind: 'conversion',
        dedupeKey: `test_${now.getTime()}`,
        facts: sampleFacts(now, destination),
      },
    ],
    { validateOnly: true },
  );
  if (answer.refreshToken && keep) await keep(answer.refreshToken, secrets);
  const r = answer.results[0];
  const sampleOnly = aboutSample(destination, r);
  const ok = r?.state === 'sent' || sampleOnly;
  return {
    destination_id: destination.id,
    platform: destination.platform,
    ok,
    status_code: answer.statusCode,
    checked: ok ? [...CHECKED[destination.platform]] : [],
    result:
      r?.state === 'sent'
        ? { state: 'accepted' }
        : sampleOnly
          ? {
              state: 'accepted',
              note: `the platform checked the request and refused only the sample's invented click id (${scrub((r as { detail?: string } | undefined)?.detail ?? '')})`,
            }
          : r && scrubDeep(r, scrub),
    answer: scrubDeep(answer.answer ?? null, scrub),
  };
}
