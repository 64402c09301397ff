import type { BatchAnswer, ItemResult } from '../../domain/conversions/platform.js';

/** What every platform client is given: where the platform is, how long a request may take. */
export interface ClientOptions {
  apiBase: string;
  timeoutMs: number;
  /** The clock of the platform's upload window (Date.now unless a test moves it). */
  now?: () => number;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  /** Parsed JSON, or null for an empty or non-JSON body. */
  body: unknown;
}

/** A request that got no answer (refused, reset, timed out): retried like a 5xx. */
export class NetworkError extends Error {
  override name = 'NetworkError';
}

/**
 * One request with a deadline. Never puts the URL or body in an error: both can carry
 * credentials (GA4's api_secret is a query parameter, Meta's token is in the body).
 */
export async function request(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<HttpAnswer> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? 'POST',
      headers: init.headers ?? {},
      ...(init.body !== undefined ? { body: init.body } : {}),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    throw new NetworkError(
      (err as Error).name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : (cause ?? 'connection failed'),
    );
  }
  const text = await res.text().catch(() => '');
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  return { status: res.status, headers: res.headers, body };
}

export const jsonHeaders = { 'content-type': 'application/json' };

/** Retry-After as delta-seconds or an HTTP date, in milliseconds from now. */
export function retryAfterMs(h: Headers, nowMs = Date.now()): number | undefined {
  const raw = h.get('retry-after');
  if (!raw) return undefined;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * What a whole-request status means for every row: 429 and 5xx are retried (with the
 * platform's Retry-After), 401/403 are refused credentials, any other 4xx a refusal.
 */
export function statusResult(a: HttpAnswer, detail: string): ItemResult {
  const wait = retryAfterMs(a.headers);
  if (a.status === 429) {
    return {
      state: 'retry',
      code: 'rate_limited',
      detail,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    };
  }
  if (a.status >= 500) {
    return {
      state: 'retry',
      code: 'server_error',
      detail,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    };
  }
  if (a.status === 401 || a.status === 403) return { state: 'failed', code: 'auth_failed', detail };
  return { state: 'failed', code: 'rejected_by_platform', detail };
}

const networkResult = (err: NetworkError): ItemResult => ({
  state: 'retry',
  code: 'network_error',
  detail: err.message,
});

export const times = <T>(n: number, v: T): T[] => Array.from({ length: n }, () => v);

/** A short string from an unknown error body, for the reason in words. */
export function say(v: unknown, max = 300): string {
  const s = typeof v === 'string' ? v : JSON.stringify(v ?? null);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** Every item's result when the request failed on the network (retried); anything else is a bug. */
export function requestFailed(err: unknown, n: number): BatchAnswer {
  if (err instanceof NetworkError)
    return { statusCode: null, results: times(n, networkResult(err)) };
  throw err;
}
