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
  urls: AdPlatformUrls,
  timeoutMs = 30_000,
  now?: () => number,
): AdPlatforms {
  const tokens = new TokenCache(timeoutMs);
  return {
    google_ads: googleClient(
      dataManagerClient({
        apiBase: urls.googleDataManagerApiBase,
        tokenUrl: urls.googleOauthTokenUrl,
        tokens,
        timeoutMs,
      }),
      googleAdsClient({
        apiBase: urls.googleAdsApiBase,
        tokenUrl: urls.googleOauthTokenUrl,
        tokens,
        timeoutMs,
      }),
    ),
    meta: metaClient({ apiBase: urls.metaGraphApiBase, timeoutMs, ...(now ? { now } : {}) }),
    microsoft_ads: microsoftAdsClient({
      apiBase: urls.microsoftAdsApiBase,
      tokenUrl: urls.microsoftOauthTokenUrl,
      tokens,
      timeoutMs,
    }),
    ga4: ga4Client({ apiBase: urls.ga4MpBase, timeoutMs, ...(now ? { now } : {}) }),
  };
}
