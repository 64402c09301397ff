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
  /** The body as read (at most MAX_ANSWER_BYTES). */
  text?: string;
}

/**
 * The most of a platform's answer this service reads (4 MiB): a Google partial failure for
 * 2,000 rows is well under 1 MiB. A larger answer is cut off and the request retried.
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * A request that got no answer. `maybeSent`: the request may have reached the platform (the
 * connection was open when it failed), so the platform may have applied it.
 */
export class NetworkError extends Error {
  override name = 'NetworkError';
  constructor(
    message: string,
    readonly maybeSent: boolean,
  ) {
    super(message);
  }
}

/** An answer that began but did not arrive whole (cut off, never ended, or too large). */
export class AnswerIncomplete extends Error {
  override name = 'AnswerIncomplete';
  constructor(
    message: string,
    readonly tooLarge: boolean,
  ) {
    super(message);
  }
}

/** A 3xx: platforms' APIs do not redirect, so a redirect means a wrong base URL. */
export class RedirectRefused extends Error {
  override name = 'RedirectRefused';
}

/** Failures before the request could leave: the platform cannot have seen it. */
const NOT_SENT: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found (DNS)',
  EAI_AGAIN: 'host name lookup failed for now (DNS)',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_CONNECT_TIMEOUT: 'no connection within the connect deadline',
  CERT_HAS_EXPIRED: 'TLS: the certificate has expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS: self-signed certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS: certificate not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS: certificate does not name the host',
};
const SENT_WORDS: Record<string, string> = {
  ECONNRESET: 'the connection was reset before an answer',
  UND_ERR_SOCKET: 'the connection closed before an answer',
  EPIPE: 'the connection closed while sending',
};

function networkError(err: unknown, timeoutMs: number): NetworkError {
  if ((err as Error).name === 'TimeoutError') {
    return new NetworkError(`no answer within ${timeoutMs} ms`, true);
  }
  const cause = (err as { cause?: { code?: string } }).cause?.code ?? '';
  if (NOT_SENT[cause]) return new NetworkError(NOT_SENT[cause]!, false);
  return new NetworkError(SENT_WORDS[cause] ?? `connection failed (${cause || 'unknown'})`, true);
}

/** The body, at most MAX_ANSWER_BYTES, whole or an AnswerIncomplete. */
async function readBody(res: Response, timeoutMs: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '');
  if (declared > MAX_ANSWER_BYTES) {
    await res.body?.cancel().catch(() => {});
    throw new AnswerIncomplete(
      `the answer declares ${declared} bytes, over ${MAX_ANSWER_BYTES}`,
      true,
    );
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let step: Awaited<ReturnType<typeof reader.read>>;
    try {
      step = await reader.read();
    } catch (err) {
      throw new AnswerIncomplete(
        (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError'
          ? `the answer did not end within ${timeoutMs} ms`
          : 'the answer was cut off (the connection closed mid-answer)',
        false,
      );
    }
    if (step.done) break;
    total += step.value.byteLength;
    if (total > MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => {});
      throw new AnswerIncomplete(`the answer is longer than ${MAX_ANSWER_BYTES} bytes`, true);
    }
    chunks.push(step.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * One request with a deadline that covers the whole answer. Never puts the URL or body in an
 * error: both can carry credentials (GA4's api_secret is a query parameter, Meta's token is
 * in the body). A JSON answer that does not parse was cut short: an AnswerIncomplete.
 */
export async function request(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<HttpAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? 'POST',
      headers: init.headers ?? {},
      ...(init.body !== undefined ? { body: init.body } : {}),
      signal,
      redirect: 'manual',
    });
  } catch (err) {
    throw networkError(err, timeoutMs);
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel().catch(() => {});
    let host = '';
    try {
      host = new URL(res.headers.get('location') ?? '', url).host;
    } catch {}
    throw new RedirectRefused(
      `the platform answered ${res.status}, a redirect${host ? ` to ${host}` : ''}, which is not followed`,
    );
  }
  const text = await readBody(res, timeoutMs);
  let body: unknown = null;
  if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch {
      if (res.headers.get('content-type')?.includes('json')) {
        throw new AnswerIncomplete('the answer is not complete JSON (cut short)', false);
      }
    }
  }
  return { status: res.status, headers: res.headers, body, text };
}

export const jsonHeaders = { 'content-type': 'application/json' };

/** Retry-After as delta-seconds or an HTTP date, in milliseconds from now. */
export function retryAfterMs(headers: Headers, nowMs = Date.now()): number | undefined {
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim()) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * What a whole-request status means for every row: 429 and 5xx are retried (with the
 * platform's Retry-After), 401/403 are refused credentials, any other 4xx a refusal.
 */
export function statusResult(answer: HttpAnswer, detail: string): ItemResult {
  const wait = retryAfterMs(answer.headers);
  if (answer.status === 429) {
    return {
      state: 'retry',
      code: 'rate_limited',
      detail,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    };
  }
  if (answer.status >= 500) {
    return {
      state: 'retry',
      code: 'server_error',
      detail,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    };
  }
  if (answer.status === 401 || answer.status === 403)
    return { state: 'failed', code: 'auth_failed', detail };
  return { state: 'failed', code: 'rejected_by_platform', detail };
}

export const times = <T>(count: number, v: T): T[] => Array.from({ length: count }, () => v);

/** A short string from an unknown error body, for the reason in words. */
export function say(value: unknown, max = 300): string {
  const s = typeof value === 'string' ? value : JSON.stringify(value ?? null);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** One row's result when the request got no whole answer; anything else is a bug (thrown). */
export function failureResult(err: unknown): ItemResult {
  if (err instanceof NetworkError) {
    return {
      state: 'retry',
      code: err.maybeSent ? 'no_answer' : 'network_error',
      detail: err.message,
    };
  }
  if (err instanceof AnswerIncomplete) {
    return {
      state: 'retry',
      code: err.tooLarge ? 'answer_too_large' : 'no_answer',
      detail: err.message,
    };
  }
  if (err instanceof RedirectRefused)
    return { state: 'failed', code: 'redirected', detail: err.message };
  throw err;
}

/** Every item's result when the request got no whole answer. */
export function requestFailed(err: unknown, n: number): BatchAnswer {
  return { statusCode: null, results: times(n, failureResult(err)) };
}
