/** What a landing page URL carries for attribution and later conversion export. */
export interface LandingParams {
  gclid?: string;
  fbclid?: string;
  msclkid?: string;
  gbraid?: string;
  wbraid?: string;
  utm_source?: string;
  utm_medium?: string;
  utm_campaign?: string;
  utm_term?: string;
  utm_content?: string;
}

const KEYS: (keyof LandingParams)[] = [
  'gclid',
  'fbclid',
  'msclkid',
  'gbraid',
  'wbraid',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
];

const MAX_VALUE = 512;

/**
 * Reads click ids and UTM parameters from the URL's query string (and from a
 * hash-router fragment such as `#/page?utm_source=x`). A URL that does not
 * parse yields nothing: the raw landing_url is still stored.
 */
export function parseLandingUrl(raw: string | null | undefined): LandingParams {
  if (!raw) return {};
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return {};
  }
  const out: LandingParams = {};
  const fragmentQuery = url.hash.includes('?') ? url.hash.slice(url.hash.indexOf('?') + 1) : '';
  for (const params of [url.searchParams, new URLSearchParams(fragmentQuery)]) {
    for (const key of KEYS) {
      if (out[key] !== undefined) continue;
      const value = params.get(key);
      if (value) out[key] = value.slice(0, MAX_VALUE);
    }
  }
  return out;
}
