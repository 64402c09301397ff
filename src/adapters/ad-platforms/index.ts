import type { AdPlatformUrls } from '../../config.js';
import type { AdPlatforms } from '../../domain/conversions/platform.js';
import { ga4Client } from './ga4.js';
import { googleAdsClient } from './google-ads.js';
import { dataManagerClient, googleClient } from './google-data-manager.js';
import { metaClient } from './meta.js';
import { microsoftAdsClient } from './microsoft-ads.js';
import { TokenCache } from './oauth.js';

export type { AdPlatformUrls };

/** One client per platform over plain fetch (docs/conversions.md says why not the SDKs). */
export function createAdPlatforms(
  u: AdPlatformUrls,
  timeoutMs = 30_000,
  now?: () => number,
): AdPlatforms {
  const tokens = new TokenCache(timeoutMs);
  return {
    google_ads: googleClient(
      dataManagerClient({
        apiBase: u.googleDataManagerApiBase,
        tokenUrl: u.googleOauthTokenUrl,
        tokens,
        timeoutMs,
      }),
      googleAdsClient({
        apiBase: u.googleAdsApiBase,
        tokenUrl: u.googleOauthTokenUrl,
        tokens,
        timeoutMs,
      }),
    ),
    meta: metaClient({ apiBase: u.metaGraphApiBase, timeoutMs, ...(now ? { now } : {}) }),
    microsoft_ads: microsoftAdsClient({
      apiBase: u.microsoftAdsApiBase,
      tokenUrl: u.microsoftOauthTokenUrl,
      tokens,
      timeoutMs,
    }),
    ga4: ga4Client({ apiBase: u.ga4MpBase, timeoutMs, ...(now ? { now } : {}) }),
  };
}
