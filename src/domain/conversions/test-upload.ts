import { errors } from '../../errors.js';
import type { UploadFacts } from './facts.js';
import type { AdPlatforms } from './platform.js';
import type { Destination } from './ports.js';
import type { SecretBox } from './secrets.js';

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

/**
 * `POST …/test`: one sample conversion in the platform's validate mode (Google
 * `validateOnly`, Meta `test_event_code`, GA4's debug endpoint; Microsoft has none, so only
 * its credentials are checked). Nothing is recorded here either.
 */
export async function testDestination(
  d: Destination,
  box: SecretBox | null,
  platforms: AdPlatforms,
  now: Date,
) {
  if (!box) throw errors.secretsKeyMissing();
  const answer = await platforms[d.platform].send(
    {
      destinationId: d.id,
      platform: d.platform,
      settings: d.settings,
      secrets: box.open(d.secrets),
    },
    [
      {
        uploadId: 'test',
        kind: 'conversion',
        dedupeKey: `test_${now.getTime()}`,
        facts: sampleFacts(now, d),
      },
    ],
    { validateOnly: true },
  );
  const r = answer.results[0];
  return {
    destination_id: d.id,
    platform: d.platform,
    ok: r?.state === 'sent',
    status_code: answer.statusCode,
    result: r?.state === 'sent' ? { state: 'accepted' } : r,
    answer: answer.answer ?? null,
  };
}
