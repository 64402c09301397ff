/**
 * What the service refuses beyond Pydantic: values Python accepts but PostgreSQL cannot store or a
 * JSON response cannot carry. FastAPI answers these with a 500 (psycopg or `json.dumps` raises
 * after validation passed); we answer a 422 at the field instead, in Pydantic's shape:
 *
 * - a lone surrogate (`"\ud800"`) in a string or a dict key: `string_unicode`, the error Pydantic
 *   itself gives a constrained `str` that cannot be encoded as UTF-8;
 * - a NUL character (U+0000), which PostgreSQL text and jsonb cannot hold: `value_error`, worded
 *   like the service's other custom checks;
 * - NaN, Infinity or -Infinity (also `1e400`, which Python reads as infinity) where a number is
 *   kept: `finite_number`, Pydantic's error for a float field with `allow_inf_nan=False`.
 *
 * Enabled per call with `ValidateOptions.storable`; the plain validator stays Pydantic-exact.
 */
import { codePointLength } from './coerce.js';
import { PyFloat, PyInt, type PyObject, type PyValue, setOwn, toPlain } from './pyvalue.js';
import { type Ctx, err, FAIL, type Node, simple } from './walk.js';

export const NUL_MSG = 'Value error, must not contain NUL characters (\\u0000)';

/** The error a string would get, or null when it can be stored. */
export function textFault(text: string): 'string_unicode' | 'nul' | null {
  if (codePointLength(text) < 0) return 'string_unicode';
  return text.includes('\u0000') ? 'nul' : null;
}

/** Reports the fault of `s` at the current path; returns FAIL, or `s` when it is fine. */
export function checkText(text: string, c: Ctx): unknown {
  const fault = textFault(text);
  if (fault === null) return text;
  if (fault === 'nul') return err(c, 'value_error', NUL_MSG, text, { error: {} });
  return simple(c, fault, text);
}

/** A dict key's fault, reported at `[...path, key, "[key]"]` as Pydantic locates key errors. */
export function checkKey(key: string, c: Ctx): boolean {
  if (textFault(key) === null) return true;
  c.path.push(key, '[key]');
  checkText(key, c);
  c.path.length -= 2;
  return false;
}

/**
 * A dict's values through `node` into `out`, each with its key on the path; with `storable`, a
 * key that cannot be stored fails at the key. Every entry is tried, so every error is reported;
 * false when any failed.
 */
export function dictValues(
  entries: Iterable<[string, PyValue]>,
  node: Node,
  c: Ctx,
  out: Record<string, unknown>,
): boolean {
  let ok = true;
  for (const [k, x] of entries) {
    if (c.storable && !checkKey(k, c)) {
      ok = false;
      continue;
    }
    c.path.push(k);
    const r = node(x, c);
    c.path.pop();
    if (r === FAIL) ok = false;
    else setOwn(out, k, r);
  }
  return ok;
}

/** A free-form value (a schema of `{}`): every string, key and float in it must be storable. */
export function storableAny(input: PyValue, c: Ctx): unknown {
  if (input === null || typeof input === 'boolean') return input;
  if (typeof input === 'string') return checkText(input, c);
  if (input instanceof PyInt)
    return typeof input.value === 'number' ? input.value : Number(input.value);
  if (input instanceof PyFloat)
    return Number.isFinite(input.value) ? input.value : simple(c, 'finite_number', input);
  if (Array.isArray(input)) {
    const out: unknown[] = new Array(input.length);
    let ok = true;
    for (let i = 0; i < input.length; i++) {
      c.path.push(i);
      const r = storableAny(input[i] as PyValue, c);
      c.path.pop();
      if (r === FAIL) ok = false;
      else out[i] = r;
    }
    return ok ? out : FAIL;
  }
  const out: Record<string, unknown> = {};
  return dictValues((input as PyObject).map, storableAny, c, out) ? out : FAIL;
}

/** A schema of `{}`: anything, as plain JS; with `storable`, only what can be kept. */
export const anyNode: Node = (value, c) => (c.storable ? storableAny(value, c) : toPlain(value));
