/**
 * A typed client for the service's three public endpoints, for a firm's
 * backend (the key must never reach a browser). Its types are generated from
 * the service's OpenAPI document when the package is built; it needs nothing
 * but `fetch`.
 *
 * Every call answers a `Result`: the body of a success, or a `TrackingError`
 * value (an HTTP answer other than success, a timeout, a network failure).
 * It never throws for those, so a caller cannot forget that the service may
 * be slow or down.
 */
import type { components, operations } from './generated/openapi.js';

export type { components, operations, paths } from './generated/openapi.js';

type Schemas = components['schemas'];
type Body<Op extends keyof operations> = operations[Op] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;

export type DniSessionRequest = Body<'createDniSession'>;
export type DniSession = Schemas['DniSession'];
export type BuyerReportRequest = Body<'postBuyerReport'>;
export type BuyerReport = Schemas['BuyerReportCreated'] | Schemas['BuyerReportReplayed'];
export type OutboundTouchRequest = Body<'executeOutboundTouch'>;
export type Touch = Schemas['Touch'];

/** Why a call did not succeed. */
export type TrackingError =
  | {
      kind: 'http';
      status: number;
      /** The `detail` code (`invalid_api_key`, `rate_limited`…), or null for a 422 or an unknown body. */
      code: string | null;
      body: unknown;
      /** Seconds from `Retry-After` (429, 503, 409 idempotency_key_in_use), else null. */
      retryAfterSeconds: number | null;
      requestId: string | null;
    }
  | { kind: 'timeout'; timeoutMs: number }
  | { kind: 'network'; message: string };

export type Result<T> =
  | { ok: true; status: number; data: T; headers: Headers }
  | { ok: false; error: TrackingError };

export interface ClientOptions {
  /** The service's base address, e.g. https://tracking.example.com */
  baseUrl: string;
  /** An API key (svc_live_…) with the scopes the calls need. Keep it on the server. */
  apiKey: string;
  /** The whole budget of one call, retries included (default 5000 ms). */
  timeoutMs?: number;
  /** Further attempts after a retryable failure (default 2). */
  retries?: number;
  /** A fetch implementation (default: the global fetch). */
  fetch?: typeof fetch;
}

export interface CallOptions {
  timeoutMs?: number;
  retries?: number;
  signal?: AbortSignal;
}

/**
 * Statuses worth another attempt: nothing was stored (503), the limit resets
 * (429), the same idempotency_key is still running (409). Anything else
 * (4xx) would fail the same way again.
 */
const RETRYABLE = new Set([409, 429, 502, 503, 504]);

export function createTrackingClient(options: ClientOptions) {
  const doFetch = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl.replace(/\/+$/, '');

  async function once(
    path: string,
    body: unknown,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<Result<unknown>> {
    try {
      const res = await doFetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify(body),
        signal,
      });
      const text = await res.text();
      let parsed: unknown = null;
      try {
        parsed = text ? JSON.parse(text) : null;
      } catch {
        // A proxy's HTML error page: reported as an HTTP error with no code.
      }
      if (res.ok) return { ok: true, status: res.status, data: parsed, headers: res.headers };
      const detail = (parsed as { detail?: unknown } | null)?.detail;
      const retryAfter = Number(res.headers.get('retry-after'));
      return {
        ok: false,
        error: {
          kind: 'http',
          status: res.status,
          code: typeof detail === 'string' ? detail : null,
          body: parsed,
          retryAfterSeconds: res.headers.has('retry-after') && retryAfter >= 0 ? retryAfter : null,
          requestId: res.headers.get('x-request-id'),
        },
      };
    } catch (err) {
      if (signal.aborted) return { ok: false, error: { kind: 'timeout', timeoutMs } };
      return { ok: false, error: { kind: 'network', message: (err as Error).message } };
    }
  }

  /**
   * One call within its budget. A failure is retried after a short backoff
   * or the server's Retry-After, if that fits in the budget. Only requests a
   * second attempt cannot do twice reach here (see each method).
   */
  async function call<T>(path: string, body: unknown, opts: CallOptions = {}): Promise<Result<T>> {
    const timeoutMs = opts.timeoutMs ?? options.timeoutMs ?? 5000;
    const retries = opts.retries ?? options.retries ?? 2;
    const deadline = Date.now() + timeoutMs;
    const signals = [AbortSignal.timeout(timeoutMs)];
    if (opts.signal) signals.push(opts.signal);
    const signal = AbortSignal.any(signals);
    for (let attempt = 0; ; attempt++) {
      const result = await once(path, body, signal, timeoutMs);
      if (result.ok || attempt >= retries || signal.aborted) return result as Result<T>;
      const e = result.error;
      if (e.kind === 'http' && !RETRYABLE.has(e.status)) return result;
      const backoff = 100 * 2 ** attempt * (0.5 + Math.random() / 2);
      const wait =
        e.kind === 'http' && e.retryAfterSeconds !== null ? e.retryAfterSeconds * 1000 : backoff;
      if (Date.now() + wait >= deadline) return result;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  const seg = encodeURIComponent;

  return {
    /**
     * POST /dni/session. Safe to repeat: a visitor with a live session gets
     * the same session and number back.
     */
    createDniSession: (body: DniSessionRequest, opts?: CallOptions) =>
      call<DniSession>('/dni/session', body, opts),

    /** POST /dni/campaigns/{code}/buyer-report. Safe to repeat: reports are idempotent by report_id. */
    postBuyerReport: (campaignCode: string, body: BuyerReportRequest, opts?: CallOptions) =>
      call<BuyerReport>(`/dni/campaigns/${seg(campaignCode)}/buyer-report`, body, opts),

    /**
     * POST /tracking/campaigns/{code}/outbound. A touch that is not a dry run
     * is given an idempotency_key when it has none, so that a retry after a
     * timeout replays the first answer instead of placing the touch twice.
     */
    executeOutboundTouch: (
      campaignCode: string,
      body: OutboundTouchRequest,
      opts?: CallOptions,
    ) => {
      const keyed =
        body.dry_run || body.idempotency_key !== undefined
          ? body
          : { ...body, idempotency_key: `kit:${crypto.randomUUID()}` };
      return call<Touch>(`/tracking/campaigns/${seg(campaignCode)}/outbound`, keyed, opts);
    },
  };
}

export type TrackingClient = ReturnType<typeof createTrackingClient>;
