const UTF8 = new TextDecoder('utf-8', { fatal: true });
const ERROR_KEYS = ['type', 'loc', 'msg', 'input', 'ctx'];
const LONE_SURROGATE = /\p{Cs}/u;

/** No string or key of a parsed body holds a lone surrogate (a `\ud800` escape in the text). */
function wellFormed(v: unknown): boolean {
  if (typeof v === 'string') return !LONE_SURROGATE.test(v);
  if (Array.isArray(v)) return v.every(wellFormed);
  if (v !== null && typeof v === 'object')
    return Object.entries(v).every(([k, x]) => wellFormed(k) && wellFormed(x));
  return true;
}

function check(ok: boolean, what: string, text: string): void {
  // Plain checks: this runs for tens of thousands of generated requests, and `expect` is slow.
  if (!ok) throw new Error(`${what}: ${text.slice(0, 500)}`);
}

function isPydanticError(e: unknown): boolean {
  if (e === null || typeof e !== 'object' || Array.isArray(e)) return false;
  const o = e as Record<string, unknown>;
  const keys = Object.keys(o);
  const order = ERROR_KEYS.filter((k) => k in o);
  return (
    keys.length === order.length &&
    keys.every((k, i) => k === order[i]) &&
    keys.length >= 4 &&
    typeof o.type === 'string' &&
    typeof o.msg === 'string' &&
    Array.isArray(o.loc) &&
    ['body', 'path', 'query'].includes(o.loc[0] as string) &&
    o.loc.every((p) => typeof p === 'string' || typeof p === 'number') &&
    (!('ctx' in o) || (typeof o.ctx === 'object' && o.ctx !== null && !Array.isArray(o.ctx)))
  );
}

/**
 * Asserts that a response is strict, well-formed JSON (no NaN, no lone surrogate escapes, never
 * empty) and, for an error, in one of the spec's two shapes: `{"detail":"<code>"}`, or a 422
 * `{"detail":[{type, loc, msg, input, ctx?}, …]}` with Pydantic's key order.
 */
export function expectSpecShape(status: number, contentType: unknown, raw: Uint8Array): void {
  const text = Buffer.from(raw).toString('latin1');
  check(contentType === 'application/json', `content-type ${String(contentType)}`, text);
  let body: { detail?: unknown };
  try {
    body = JSON.parse(UTF8.decode(raw));
  } catch {
    throw new Error(`not UTF-8 JSON: ${text.slice(0, 500)}`);
  }
  check(wellFormed(body), 'lone surrogate in the body', text);
  if (status < 300) return;
  check(Object.keys(body).length === 1 && 'detail' in body, 'only "detail"', text);
  if (typeof body.detail === 'string') {
    check(/^[A-Za-z_ ]+$/.test(body.detail), 'a catalogue code', text);
    return;
  }
  check(status === 422, 'a detail list only with 422', text);
  const list = body.detail;
  check(Array.isArray(list) && list.length > 0, 'a non-empty detail list', text);
  check((list as unknown[]).every(isPydanticError), 'Pydantic-shaped errors', text);
}
