/**
 * `dumpsPy` that cannot fail. FastAPI answers 500 when an echoed `input` holds NaN, an infinity or
 * a lone surrogate (`json.dumps(allow_nan=False)` or the UTF-8 encode raises); a client that sent
 * bad bytes is owed a 422 all the same, so whatever JSON cannot carry is written as a stand-in:
 *
 * - a lone surrogate (in a value, a key or a `loc`) becomes U+FFFD, as `errors="replace"` would;
 * - NaN, Infinity and -Infinity become the strings `"NaN"`, `"Infinity"`, `"-Infinity"`, the
 *   lexemes Python's json module reads them from (`1e400` reads as infinity, so it shows as one);
 * - `undefined`, functions and symbols become `null`; nesting past the encoder's limit becomes
 *   `null` too.
 *
 * Anything JSON can carry is written exactly as `dumpsPy` writes it, so parity is unchanged.
 */
import { dumpsPy } from './pydump.js';
import { PyFloat, PyInt, PyObject } from './pyvalue.js';

const LONE_SURROGATE = /\p{Cs}/gu;
/** `dumpsPy` gives up past depth 1000; stand-ins start well before, whatever wraps the value. */
const MAX_DEPTH = 990;

function nonFinite(x: number): string {
  return Number.isNaN(x) ? 'NaN' : x > 0 ? 'Infinity' : '-Infinity';
}

/** The same value with every part JSON cannot carry replaced by its stand-in. */
export function renderable(input: unknown, depth = 0): unknown {
  if (input === null || typeof input === 'boolean' || typeof input === 'bigint') return input;
  if (typeof input === 'string') return input.replace(LONE_SURROGATE, '\ufffd');
  if (typeof input === 'number') return Number.isFinite(input) ? input : nonFinite(input);
  if (typeof input !== 'object' || depth >= MAX_DEPTH) return null;
  if (input instanceof PyInt) return input;
  if (input instanceof PyFloat)
    return Number.isFinite(input.value) ? input : nonFinite(input.value);
  if (Array.isArray(input))
    return input.map((x) => (x === undefined ? null : renderable(x, depth + 1)));
  const entries =
    input instanceof PyObject || input instanceof Map
      ? ((input instanceof PyObject ? input.map : input) as Map<unknown, unknown>).entries()
      : Object.entries(input);
  const out = new Map<string, unknown>();
  for (const [k, x] of entries) {
    if (x !== undefined) out.set(renderable(String(k)) as string, renderable(x, depth + 1));
  }
  return out;
}

/**
 * `dumpsPy(v)` when it can be written, else `dumpsPy` of its stand-in (see the module comment);
 * `fallback` only if even that fails, which would be a bug in `renderable`.
 */
export function dumpsSafe(value: unknown, fallback: string): string {
  try {
    return dumpsPy(value);
  } catch {
    try {
      return dumpsPy(renderable(value));
    } catch {
      return fallback;
    }
  }
}
