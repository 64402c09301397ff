/**
 * The route a firm's site serves to its own pages (GET, same origin): it
 * gives the visitor their tracking number in the shape of AMP's
 * amp-call-tracking, plus the session's expiry:
 *
 *   {"phoneNumber":"+14155550101","formattedPhoneNumber":"(415) 555-0101","expiresAt":"…"}
 *
 * It owns the first-party visitor cookie, forwards the landing URL, click ids
 * and Meta's _fbc/_fbp cookies, and asks the service within a short budget.
 * When the service does not answer in time (or refuses), it answers the
 * campaign's default number with `expiresAt: null`: never an error page, so a
 * page keeps its number. The API key stays here.
 *
 * Framework-free: the adapters (node.ts, fastify.ts, next.ts) turn their
 * request into a `SiteRequest` and write the `SiteResponse` back.
 */
import { randomUUID } from 'node:crypto';
import {
  createTrackingClient,
  type TrackingClient,
  type TrackingError,
} from '@call-tracking/client';
import { type ClientLimit, ClientThrottle, DEFAULT_CLIENT_LIMIT } from './throttle.js';

export interface TrackingRouteOptions {
  /** The tracking service, e.g. https://tracking.example.com */
  apiUrl: string;
  /** A key with the enroll scope. It never leaves this server. */
  apiKey: string;
  /** The campaign code. */
  campaign: string;
  /** The campaign's default number (E.164), answered when the service does not answer in time. */
  defaultNumber: string;
  /** The budget for the service, retries included (default 500 ms). */
  timeoutMs?: number;
  /**
   * The site's public origin (https://www.acme.example). Without it, the
   * request's own Host is trusted, which is right only when no proxy rewrites it.
   */
  siteOrigin?: string;
  /** Other origins whose pages may call the route (e.g. a second domain of the firm). */
  allowedOrigins?: string[];
  /** The visitor cookie's name (default ct_vid). */
  cookieName?: string;
  /** Told about every answer that fell back to the default number (log it: it costs attribution). */
  onFallback?: (error: TrackingError) => void;
  /** A client to use instead of one built from apiUrl/apiKey. */
  client?: TrackingClient;
  /**
   * Each client address's budget of calls to the service (default 20 a
   * minute, and at most a tenth of the organization's limit). Past it, the
   * address gets the default number until the window ends.
   */
  clientLimit?: Partial<ClientLimit>;
  /**
   * The visitor's address. Default: the adapter's (the socket's peer for
   * node:http and Express, `request.ip` for Fastify, the last
   * `X-Forwarded-For` hop for Next.js). Behind a proxy of your own, read the
   * header that proxy sets.
   */
  clientAddress?: (req: SiteRequest) => string | undefined;
  /** Told about every request refused a session by the per-client budget. */
  onThrottled?: (address: string | undefined) => void;
  /** The clock of the per-client budget (tests). */
  now?: () => number;
}

/** What the route needs of a request: an absolute URL and its headers. */
export interface SiteRequest {
  method: string;
  /** Absolute: scheme and host included. */
  url: string;
  header(name: string): string | undefined;
  /** The client's address, as the adapter sees it. */
  address?: string;
}

export interface SiteResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface TrackingNumberAnswer {
  phoneNumber: string;
  formattedPhoneNumber: string;
  /** The session's expiry; null when this is the default number (no session to remember). */
  expiresAt: string | null;
}

const YEAR_SECONDS = 365 * 24 * 3600;
const VISITOR_ID = /^[A-Za-z0-9-]{8,64}$/;

/** +14155550101 → (415) 555-0101 (North American numbers); others as they are. */
export function formatNumber(e164: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164);
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : e164;
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i <= 0) continue;
    try {
      out[part.slice(0, i).trim()] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      // A cookie another script wrote badly is not ours to judge.
    }
  }
  return out;
}

const upTo = (value: string | null | undefined, max: number) =>
  value && value.length <= max ? value : null;

function json(status: number, body: unknown, extra: Record<string, string> = {}): SiteResponse {
  return {
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      // Per visitor: a shared cache must never hand one visitor's number to another.
      'cache-control': 'private, no-store',
      vary: 'Cookie',
      ...extra,
    },
    body: JSON.stringify(body),
  };
}

export function createTrackingRoute(options: TrackingRouteOptions) {
  const client =
    options.client ?? createTrackingClient({ baseUrl: options.apiUrl, apiKey: options.apiKey });
  const cookieName = options.cookieName ?? 'ct_vid';
  const throttle = new ClientThrottle(
    { ...DEFAULT_CLIENT_LIMIT, ...options.clientLimit },
    options.now ?? Date.now,
  );
  const fallback: TrackingNumberAnswer = {
    phoneNumber: options.defaultNumber,
    formattedPhoneNumber: formatNumber(options.defaultNumber),
    expiresAt: null,
  };

  /**
   * A page of another site must not spend this firm's sessions (nor read the
   * answer): browsers send Origin on cross-origin requests and Sec-Fetch-Site
   * on all of them, so either one naming a stranger is refused.
   */
  function crossSite(req: SiteRequest, own: string): boolean {
    const allowed = new Set([own, ...(options.allowedOrigins ?? [])]);
    const origin = req.header('origin');
    if (origin !== undefined && !allowed.has(origin)) return true;
    const site = req.header('sec-fetch-site');
    if (site === undefined || site === 'same-origin' || site === 'none') return false;
    return origin === undefined;
  }

  /**
   * Only a page's own fetch is given a session: the browser says so with
   * `Sec-Fetch-Site: same-origin`, or with an allowed `Origin` (a sibling
   * origin, an AMP cache). A request with neither comes from a script, a
   * crawler or a typed URL, and gets the default number without spending
   * one of the organization's sessions.
   */
  function browserFetch(req: SiteRequest, own: string): boolean {
    if (req.header('sec-fetch-site') === 'same-origin') return true;
    const origin = req.header('origin');
    return origin !== undefined && (origin === own || !!options.allowedOrigins?.includes(origin));
  }

  /** The page the visitor is on, when it is a page of this site (never a stranger's URL). */
  function landingOf(req: SiteRequest, url: URL, own: string): URL | null {
    const allowed = new Set([own, ...(options.allowedOrigins ?? [])]);
    for (const candidate of [url.searchParams.get('url'), req.header('referer')]) {
      if (!candidate || candidate.length > 2048) continue;
      try {
        const landing = new URL(candidate);
        if (allowed.has(landing.origin)) return landing;
      } catch {}
    }
    return null;
  }

  /**
   * GA4's cookies, `_ga` (the client id) and `_ga_<container>` (the session), as query
   * parameters of the landing URL: the service reads both from there for GA4 conversions
   * (docs/conversions.md). Those the page's URL already has are kept as they are.
   */
  function withGaCookies(landing: URL | null, cookies: Record<string, string>): URL | null {
    if (!landing) return null;
    const out = new URL(landing.href);
    for (const [k, v] of Object.entries(cookies)) {
      const ga = k === '_ga' || /^_ga_[A-Z0-9]{4,20}$/i.test(k);
      if (ga && v && v.length <= 200 && !out.searchParams.has(k)) out.searchParams.set(k, v);
    }
    return out.href.length <= 2048 ? out : landing;
  }

  return async function handle(req: SiteRequest): Promise<SiteResponse> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return json(405, { detail: 'method_not_allowed' }, { allow: 'GET, HEAD' });
    }
    const url = new URL(req.url);
    const own = options.siteOrigin ? new URL(options.siteOrigin).origin : url.origin;
    if (crossSite(req, own)) return json(403, { detail: 'cross_site_request' });
    // HEAD reads no body, so it never needs a number: no session, no cookie.
    if (req.method === 'HEAD' || !browserFetch(req, own)) return json(200, fallback);
    const address = options.clientAddress ? options.clientAddress(req) : req.address;
    if (!throttle.take(address)) {
      options.onThrottled?.(address);
      return json(200, fallback);
    }

    const cookies = parseCookies(req.header('cookie'));
    const extra: Record<string, string> = {};
    let visitorId = cookies[cookieName];
    if (!visitorId || !VISITOR_ID.test(visitorId)) {
      visitorId = randomUUID();
      // HttpOnly: no page script needs it, this route reads it from the request.
      extra['set-cookie'] =
        `${cookieName}=${visitorId}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax; HttpOnly` +
        (own.startsWith('https:') ? '; Secure' : '');
    }
    const landing = withGaCookies(landingOf(req, url, own), cookies);
    let answer = fallback;
    try {
      const result = await client.createDniSession(
        {
          campaign_code: options.campaign,
          visitor_id: visitorId,
          // The service reads utm_*, gclid, fbclid, msclkid, gbraid and wbraid from it.
          landing_url: landing?.href ?? null,
          gclid: upTo(landing?.searchParams.get('gclid'), 512),
          fbc: upTo(cookies._fbc, 512),
          fbp: upTo(cookies._fbp, 512),
        },
        { timeoutMs: options.timeoutMs ?? 500 },
      );
      if (result.ok) {
        throttle.observe(result.headers.get('ratelimit-policy'));
        answer = {
          phoneNumber: result.data.tracking_number,
          formattedPhoneNumber: formatNumber(result.data.tracking_number),
          expiresAt: result.data.expires_at,
        };
      } else options.onFallback?.(result.error);
    } catch (err) {
      // The client answers values; this is a bug, and still not the visitor's problem.
      options.onFallback?.({ kind: 'network', message: (err as Error).message });
    }
    return json(200, answer, extra);
  };
}

export type TrackingRoute = ReturnType<typeof createTrackingRoute>;
