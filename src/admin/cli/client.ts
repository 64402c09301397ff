/** A small client of the admin API (contract §6): one request in, one outcome out. */

export interface AdminTarget {
  /** Base URL of the admin listener; a path prefix (behind a proxy) is kept. */
  url: string;
  token: string;
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  path: string;
  body?: unknown;
  query?: Record<string, string | number | undefined>;
}

export type ApiOutcome =
  /** The API answered; `body` is the parsed JSON, or undefined when the answer was not JSON. */
  | { kind: 'answer'; status: number; text: string; body: unknown }
  /** No answer at all: nothing listening, DNS failure, reset, timeout. */
  | { kind: 'unreachable'; url: string; code: string | undefined; message: string };

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

const TIMEOUT_MS = 60_000;

/** An id or code as one path segment, whatever characters it holds. */
export const seg = (value: string) => encodeURIComponent(value);

export function requestUrl(base: string, req: ApiRequest): string {
  const url = new URL(base.replace(/\/+$/, '') + req.path);
  for (const [k, v] of Object.entries(req.query ?? {})) {
    if (v !== undefined) url.searchParams.set(k, String(v));
  }
  return url.toString();
}

/** undici hides the socket error in `cause`, and a dual-stack connect wraps it in an AggregateError. */
function networkCode(err: unknown): string | undefined {
  const cause = (err as { cause?: { code?: string; errors?: { code?: string }[] } }).cause;
  return cause?.code ?? cause?.errors?.find((e) => e.code)?.code;
}

export async function callAdmin(
  target: AdminTarget,
  req: ApiRequest,
  fetchImpl: FetchLike = fetch,
): Promise<ApiOutcome> {
  const url = requestUrl(target.url, req);
  const headers: Record<string, string> = { authorization: `Bearer ${target.token}` };
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  let text: string;
  try {
    res = await fetchImpl(url, {
      method: req.method,
      headers,
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    text = await res.text();
  } catch (err) {
    const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
    return {
      kind: 'unreachable',
      url,
      code: timedOut ? 'ETIMEDOUT' : networkCode(err),
      message: err instanceof Error ? err.message : String(err),
    };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { kind: 'answer', status: res.status, text, body };
}
