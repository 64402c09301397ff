/** A small client of the admin API (contract §6): one request in, one outcome out. */

export interface AdminTarget {
  /** Base URL of the admin listener; a path prefix (behind a proxy) is kept. */
  url: string;
  token: string;
}

export interface ApiRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  /** Sent as JSON. */
  body?: unknown;
  /** A body that is not JSON, sent as it is read (a file), instead of `body`. */
  upload?: Upload;
  query?: Record<string, string | number | undefined>;
  /** The media type asked for, when not the JSON answer (an import's progress lines). */
  accept?: string;
}

export interface Upload {
  contentType: string;
  stream: ReadableStream<Uint8Array>;
}

/** No answer at all: nothing listening, DNS failure, reset, timeout. */
export type Unreachable = {
  kind: 'unreachable';
  url: string;
  code: string | undefined;
  message: string;
};

export type ApiOutcome =
  /** The API answered; `body` is the parsed JSON, or undefined when the answer was not JSON. */
  { kind: 'answer'; status: number; text: string; body: unknown } | Unreachable;

/** An answer whose status and headers are in and whose body is still on the wire. */
export interface AdminStream {
  kind: 'stream';
  url: string;
  status: number;
  headers: Headers;
  /**
   * Hands the body to `sink` piece by piece, waiting for each call. A
   * connection that breaks or goes quiet is an `Unreachable` result; an
   * error thrown by `sink` is rethrown and the request is abandoned.
   */
  pipe(sink: (chunk: Uint8Array) => unknown): Promise<Unreachable | undefined>;
}

export type StreamOutcome = AdminStream | Unreachable;

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/**
 * How long the CLI waits for the next byte (the headers, then each piece of
 * the body): an export of any length goes on while bytes keep coming.
 */
const IDLE_MS = 60_000;

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

function unreachable(url: string, err: unknown): Unreachable {
  const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
  return {
    kind: 'unreachable',
    url,
    code: timedOut ? 'ETIMEDOUT' : networkCode(err),
    message: err instanceof Error ? err.message : String(err),
  };
}

/** Aborting the request rejects whichever of fetch() or read() is pending. */
async function beforeIdle<T>(controller: AbortController, pending: Promise<T>): Promise<T> {
  const timer = setTimeout(
    () => controller.abort(new DOMException(`no data for ${IDLE_MS / 1000} s`, 'TimeoutError')),
    IDLE_MS,
  );
  try {
    return await pending;
  } finally {
    clearTimeout(timer);
  }
}

/** Sends one request and stops at the headers; the caller reads the body through `pipe`. */
export async function streamAdmin(
  target: AdminTarget,
  req: ApiRequest,
  fetchImpl: FetchLike = fetch,
): Promise<StreamOutcome> {
  const url = requestUrl(target.url, req);
  const headers: Record<string, string> = { authorization: `Bearer ${target.token}` };
  if (req.accept) headers.accept = req.accept;
  let body: RequestInit['body'];
  if (req.upload) {
    headers['content-type'] = req.upload.contentType;
    body = req.upload.stream;
  } else if (req.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(req.body);
  }
  const controller = new AbortController();
  let res: Response;
  try {
    res = await beforeIdle(
      controller,
      fetchImpl(url, {
        method: req.method,
        headers,
        body,
        // fetch requires it for a stream body: the answer is read only after the upload ends.
        ...(req.upload ? { duplex: 'half' as const } : {}),
        signal: controller.signal,
      }),
    );
  } catch (err) {
    return unreachable(url, err);
  }
  const reader = res.body?.getReader();
  return {
    kind: 'stream',
    url,
    status: res.status,
    headers: res.headers,
    async pipe(sink) {
      if (!reader) return undefined;
      let finished = false;
      try {
        for (;;) {
          let next: Awaited<ReturnType<typeof reader.read>>;
          try {
            next = await beforeIdle(controller, reader.read());
          } catch (err) {
            return unreachable(url, err);
          }
          if (next.done) {
            finished = true;
            return undefined;
          }
          await sink(next.value);
        }
      } finally {
        if (!finished) controller.abort();
      }
    },
  };
}

/** Reads the rest of an answer as text (JSON when it parses). */
export async function readAnswer(stream: AdminStream): Promise<ApiOutcome> {
  const decoder = new TextDecoder();
  let text = '';
  const broken = await stream.pipe((chunk) => {
    text += decoder.decode(chunk, { stream: true });
  });
  if (broken) return broken;
  text += decoder.decode();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { kind: 'answer', status: stream.status, text, body };
}

export async function callAdmin(
  target: AdminTarget,
  req: ApiRequest,
  fetchImpl: FetchLike = fetch,
): Promise<ApiOutcome> {
  const opened = await streamAdmin(target, req, fetchImpl);
  return opened.kind === 'stream' ? readAnswer(opened) : opened;
}
