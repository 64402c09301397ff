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
export function textFault(s: string): 'string_unicode' | 'nul' | null {
  if (codePointLength(s) < 0) return 'string_unicode';
  return s.includes('\u0000') ? 'nul' : null;
}

/** Reports the fault of `s` at the current path; returns FAIL, or `s` when it is fine. */
export function checkText(s: string, c: Ctx): unknown {
  const fault = textFault(s);
  if (fault === null) return s;
  if (fault === 'nul') return err(c, 'value_error', NUL_MSG, s, { error: {} });
  return simple(c, fault, s);
}

/** A dict key's fault, reported at `[...path, key, "[key]"]` as Pydantic locates key errors. */
export function checkKey(k: string, c: Ctx): boolean {
  if (textFault(k) === null) return true;
  c.path.push(k, '[key]');
  checkText(k, c);
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
export function storableAny(v: PyValue, c: Ctx): unknown {
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'string') return checkText(v, c);
  if (v instanceof PyInt) return typeof v.value === 'number' ? v.value : Number(v.value);
  if (v instanceof PyFloat)
    return Number.isFinite(v.value) ? v.value : simple(c, 'finite_number', v);
  if (Array.isArray(v)) {
    const out: unknown[] = new Array(v.length);
    let ok = true;
    for (let i = 0; i < v.length; i++) {
      c.path.push(i);
      const r = storableAny(v[i] as PyValue, c);
      c.path.pop();
      if (r === FAIL) ok = false;
      else out[i] = r;
    }
    return ok ? out : FAIL;
  }
  const out: Record<string, unknown> = {};
  return dictValues((v as PyObject).map, storableAny, c, out) ? out : FAIL;
}

/** A schema of `{}`: anything, as plain JS; with `storable`, only what can be kept. */
export const anyNode: Node = (v, c) => (c.storable ? storableAny(v, c) : toPlain(v));
