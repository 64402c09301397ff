import type { Platform } from './vocabulary.js';

/**
 * The API versions each platform's client can speak, the default, and the day the vendor
 * retires each one (null: no date announced yet). A destination picks one with
 * `settings.api_version`; the service warns from 60 days before the day (docs/conversions.md).
 * Keep the newest first: it is the default.
 */
export interface ApiVersion {
  version: string;
  /** ISO date (UTC) from which the vendor refuses the version; null when not announced. */
  retiresOn: string | null;
  /** Where the vendor announced it (or publishes its schedule). */
  source: string;
}

/** Which API a version belongs to: Google Ads destinations speak one of two. */
export type VersionedApi = 'google_ads_api' | 'data_manager' | 'meta_graph' | 'microsoft_ads';

export const API_VERSIONS: Record<VersionedApi, readonly ApiVersion[]> = {
  // The protocol buffers of google-ads-node 25.1.0 (the version the tests check against).
  google_ads_api: [
    {
      version: 'v25',
      retiresOn: null,
      source: 'https://developers.google.com/google-ads/api/docs/sunset-dates',
    },
  ],
  data_manager: [
    {
      version: 'v1',
      retiresOn: null,
      source: 'https://developers.google.com/data-manager/api/reference/rest',
    },
  ],
  // facebook-nodejs-business-sdk 24.0.1 speaks v24.0; v21.0 is served until 2027-01-21.
  meta_graph: [
    {
      version: 'v24.0',
      retiresOn: null,
      source: 'https://developers.facebook.com/docs/graph-api/changelog/versions',
    },
    {
      version: 'v21.0',
      retiresOn: '2027-01-21',
      source: 'https://developers.facebook.com/docs/graph-api/changelog/versions',
    },
  ],
  microsoft_ads: [
    {
      version: 'v13',
      retiresOn: null,
      source: 'https://learn.microsoft.com/en-us/advertising/guides/migration-guide',
    },
  ],
};

/**
 * Versions a vendor has already retired: named so that a destination still set to one is
 * refused with the date, rather than silently failing every upload.
 */
export const RETIRED_VERSIONS: Record<VersionedApi, readonly ApiVersion[]> = {
  google_ads_api: [
    {
      version: 'v21',
      retiresOn: '2026-08-05',
      source:
        'https://developers.google.com/ads/blog/posts/2026/06/google-ads-api-v21-sunset-reminder',
    },
    {
      version: 'v22',
      retiresOn: '2026-10-07',
      source:
        'https://developers.google.com/ads/blog/posts/2026/09/google-ads-api-v22-sunset-reminder',
    },
  ],
  data_manager: [],
  meta_graph: [],
  microsoft_ads: [],
};

/** Days before the retirement day from which the service warns. */
export const WARN_DAYS = 60;
const DAY_MS = 86_400_000;

/** The versioned API a destination uses, or null (GA4's Measurement Protocol has no version). */
export function versionedApi(platform: Platform, settings: Record<string, string>) {
  switch (platform) {
    case 'google_ads':
      return settings.api === 'google_ads_api' ? 'google_ads_api' : 'data_manager';
    case 'meta':
      return 'meta_graph';
    case 'microsoft_ads':
      return 'microsoft_ads';
    case 'ga4':
      return null;
  }
}

export const defaultVersion = (api: VersionedApi) => API_VERSIONS[api][0]!.version;

/** The version a destination's requests use: its setting, else the default. */
export function versionOf(
  platform: Platform,
  settings: Record<string, string>,
): { api: VersionedApi; version: string } | null {
  const api = versionedApi(platform, settings);
  if (!api) return null;
  return { api, version: settings.api_version || defaultVersion(api) };
}

/** A problem with `settings.api_version`, or null. */
export function versionProblem(platform: Platform, settings: Record<string, string>) {
  const v = versionOf(platform, settings);
  if (!v || !settings.api_version) return null;
  if (API_VERSIONS[v.api].some((x) => x.version === v.version)) return null;
  const retired = RETIRED_VERSIONS[v.api].find((x) => x.version === v.version);
  const known = API_VERSIONS[v.api].map((x) => x.version).join(', ');
  return retired
    ? `${v.version} was retired on ${retired.retiresOn}; use one of ${known}`
    : `must be one of ${known}`;
}

export interface VersionWarning {
  api: VersionedApi;
  version: string;
  retires_on: string;
  days_left: number;
  message: string;
  source: string;
}

/** A warning when the version in use is retired, or will be within WARN_DAYS, else null. */
export function versionWarning(
  platform: Platform,
  settings: Record<string, string>,
  now: Date,
): VersionWarning | null {
  const v = versionOf(platform, settings);
  if (!v) return null;
  const entry = [...API_VERSIONS[v.api], ...RETIRED_VERSIONS[v.api]].find(
    (x) => x.version === v.version,
  );
  if (!entry?.retiresOn) return null;
  const daysLeft = Math.ceil((Date.parse(`${entry.retiresOn}T00:00:00Z`) - now.getTime()) / DAY_MS);
  if (daysLeft > WARN_DAYS) return null;
  const newest = defaultVersion(v.api);
  const message =
    daysLeft <= 0
      ? `${v.api} ${v.version} was retired on ${entry.retiresOn}: uploads fail until settings.api_version is ${newest}`
      : `${v.api} ${v.version} is retired on ${entry.retiresOn} (in ${daysLeft} days): set settings.api_version to ${newest}`;
  return {
    api: v.api,
    version: v.version,
    retires_on: entry.retiresOn,
    days_left: daysLeft,
    message,
    source: entry.source,
  };
}

/**
 * What /admin/readyz says about the versions in use: destinations on a retired version (their
 * uploads fail) make it degraded; versions retiring within WARN_DAYS are named. Counts per
 * API and version, never which organization.
 */
export function versionReadiness(
  destinations: { platform: Platform; settings: Record<string, string> }[],
  now: Date,
): { status: 'ok' | 'degraded'; detail?: string } {
  const counts = new Map<string, { w: VersionWarning; n: number }>();
  for (const d of destinations) {
    const w = versionWarning(d.platform, d.settings, now);
    if (!w) continue;
    const key = `${w.api} ${w.version}`;
    const c = counts.get(key) ?? { w, n: 0 };
    c.n++;
    counts.set(key, c);
  }
  if (counts.size === 0) return { status: 'ok' };
  const parts = [...counts.entries()].map(([key, { w, n }]) =>
    w.days_left <= 0
      ? `${n} destination(s) on ${key}, retired on ${w.retires_on}`
      : `${n} destination(s) on ${key}, retired on ${w.retires_on} (in ${w.days_left} days)`,
  );
  const retired = [...counts.values()].some(({ w }) => w.days_left <= 0);
  return {
    status: retired ? 'degraded' : 'ok',
    detail: `${parts.join('; ')}: set settings.api_version (docs/conversions.md)`,
  };
}
