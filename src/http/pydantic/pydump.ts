/** `json.dumps(v, ensure_ascii=False, allow_nan=False, separators=(",", ":"))` + UTF-8 encode. */
import { PyFloat, PyInt, PyObject, pyFloatRepr } from './pyvalue.js';

/** What `json.dumps(..., allow_nan=False)` or the later UTF-8 encode would raise: FastAPI answers 500. */
export class PyJsonEncodeError extends Error {
  override name = 'PyJsonEncodeError';
}

type WellFormed = string & { isWellFormed(): boolean };
const HAS_WELL_FORMED =
  typeof (String.prototype as Partial<WellFormed>).isWellFormed === 'function';
const LONE_SURROGATE = /\p{Cs}/u;

function encStr(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return encStrSlow(s);
  }
  return `"${s}"`;
}

function encStrSlow(s: string): string {
  if (HAS_WELL_FORMED ? !(s as WellFormed).isWellFormed() : LONE_SURROGATE.test(s)) {
    throw new PyJsonEncodeError("'utf-8' codec can't encode character: surrogates not allowed");
  }
  // For well-formed strings JSON.stringify escapes exactly what Python's encode_basestring does:
  // `"`, `\`, \b \f \n \r \t and other C0 controls as lowercase \u00XX; everything else is raw.
  return JSON.stringify(s);
}

function encFloat(x: number): string {
  if (!Number.isFinite(x)) {
    throw new PyJsonEncodeError(
      `Out of range float values are not JSON compliant: ${pyFloatRepr(x)}`,
    );
  }
  return pyFloatRepr(x);
}

function encode(v: unknown, depth: number): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return encStr(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      if (!Number.isInteger(v)) return encFloat(v);
      return Math.abs(v) < 1e21 ? String(v === 0 ? 0 : v) : BigInt(v).toString();
    case 'bigint':
      return v.toString();
    case 'object':
      break;
    default:
      throw new TypeError(`Object of type ${typeof v} is not JSON serializable`);
  }
  if (depth > 1000) throw new PyJsonEncodeError('Circular reference detected');
  if (v instanceof PyInt) return v.value.toString();
  if (v instanceof PyFloat) return encFloat(v.value);
  let out: string;
  if (Array.isArray(v)) {
    out = '[';
    for (let i = 0; i < v.length; i++) out += (i ? ',' : '') + encode(v[i], depth + 1);
    return `${out}]`;
  }
  out = '{';
  let first = true;
  if (v instanceof PyObject || v instanceof Map) {
    for (const [k, x] of (v instanceof PyObject ? v.map : v) as Map<unknown, unknown>) {
      if (x === undefined) continue;
      out += `${first ? '' : ','}${encStr(String(k))}:${encode(x, depth + 1)}`;
      first = false;
    }
    return `${out}}`;
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const x = o[k];
    if (x === undefined) continue;
    out += `${first ? '' : ','}${encStr(k)}:${encode(x, depth + 1)}`;
    first = false;
  }
  return `${out}}`;
}

/**
 * `json.dumps(v, ensure_ascii=False, allow_nan=False, separators=(",", ":"))` followed by the UTF-8
 * encode Starlette does. Accepts `PyValue` trees and plain JS values (mixed freely): a JS number that
 * is an integer prints as an int, any other as a Python float repr; `bigint` prints as an int;
 * object properties whose value is `undefined` are skipped (as `JSON.stringify` does); plain-object
 * key order is JS order (integer-like keys first), so use `PyObject`/`Map` where order matters.
 * Throws `PyJsonEncodeError` for NaN/Infinity and lone surrogates (FastAPI then answers 500), and a
 * `TypeError` for `undefined`, functions and symbols.
 */
export function dumpsPy(value: unknown): string {
  return encode(value, 0);
}
