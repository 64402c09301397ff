/**
 * pydantic-core lax-mode scalar conversions for Python input (`input_python.rs` + `shared.rs`).
 * Each function returns the converted value or, on failure, the pydantic error type as a string.
 */
import { PyFloat, PyInt, type PyValue } from './pyvalue.js';

export type IntError =
  | 'int_type'
  | 'int_parsing'
  | 'int_from_float'
  | 'int_parsing_size'
  | 'finite_number';
export type FloatError = 'float_type' | 'float_parsing';
export type BoolError = 'bool_type' | 'bool_parsing';

/** Rust `char::is_whitespace` (Unicode White_Space), which `str::trim` strips. */
function isRustSpace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

export function rustTrim(text: string): string {
  let a = 0;
  let b = text.length;
  while (a < b && isRustSpace(text.charCodeAt(a))) a++;
  while (b > a && isRustSpace(text.charCodeAt(b - 1))) b--;
  return a === 0 && b === text.length ? text : text.slice(a, b);
}

const JSON_INT = /^-?(?:0|[1-9][0-9]*)$/;
const INT_PREFIX = /^-?[1-9][0-9]*/;
/** jiter refuses integers longer than this (sign included) with `NumberOutOfRange`. */
const MAX_INT_LEN = 4300;

function intFromLexeme(s: string): number | bigint {
  if (s.length <= 15) return Number(s) || 0;
  const b = BigInt(s);
  return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
}

function stripUnderscores(s: string): string | null {
  if (s.startsWith('_') || s.endsWith('_') || !s.includes('_') || s.includes('__')) return null;
  return s.replaceAll('_', '');
}

function stripLeadingZeros(s: string): string | null {
  const c0 = s.charCodeAt(0);
  if (c0 !== 48) return (c0 >= 49 && c0 <= 57) || c0 === 45 ? s : null;
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 48 || c === 95) continue;
    if ((c >= 49 && c <= 57) || c === 45) return s.slice(i);
    if (c === 46) return s.slice(i - 1);
    return null;
  }
  return s.slice(s.length - 1);
}

/** pydantic-core `clean_int_str`: null when there was nothing to clean (itself an error). */
function cleanIntStr(original: string): string | null {
  let s = rustTrim(original);
  if (s.startsWith('+')) {
    if (s.startsWith('+-')) return null;
    s = s.slice(1);
  }
  let sign = '';
  if (s.startsWith('-')) {
    if (s.startsWith('--') || s.startsWith('-+')) return null;
    sign = '-';
    s = s.slice(1);
  }
  const z = stripLeadingZeros(s);
  if (z === null) return null;
  s = z;
  const dot = s.indexOf('.');
  if (dot >= 0 && dot + 1 < s.length && /^0+$/.test(s.slice(dot + 1))) s = s.slice(0, dot);
  const u = stripUnderscores(s);
  if (u !== null) return sign + u;
  return original.length === s.length ? null : sign + s;
}

/** pydantic-core `str_as_int`. */
export function strAsInt(text: string): number | bigint | IntError {
  if (JSON_INT.test(text))
    return text.length > MAX_INT_LEN ? 'int_parsing_size' : intFromLexeme(text);
  const pre = INT_PREFIX.exec(text);
  if (pre && pre[0].length > MAX_INT_LEN) return 'int_parsing_size';
  const cleaned = cleanIntStr(text);
  if (cleaned === null || cleaned.length > MAX_INT_LEN || !JSON_INT.test(cleaned))
    return 'int_parsing';
  return intFromLexeme(cleaned);
}

const TWO_63 = 2 ** 63;

/** pydantic-core `float_as_int`. */
export function floatAsInt(value: number): number | bigint | IntError {
  if (!Number.isFinite(value)) return 'finite_number';
  if (value % 1 !== 0) return 'int_from_float';
  if (value > -TWO_63 && value < TWO_63)
    return Number.isSafeInteger(value) ? value + 0 : BigInt(value);
  return 'int_parsing_size';
}

/** Lax `int` validation of Python input. */
export function laxInt(input: PyValue): number | bigint | IntError {
  if (input instanceof PyInt) return input.value;
  if (typeof input === 'boolean') return input ? 1 : 0;
  if (typeof input === 'string') return strAsInt(input);
  if (input instanceof PyFloat) return floatAsInt(input.value);
  return 'int_type';
}

const RUST_FLOAT = /^[+-]?(?:inf|infinity|nan|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?)$/i;

function parseRustFloat(s: string): number | null {
  if (!RUST_FLOAT.test(s)) return null;
  const last = s.charCodeAt(s.length - 1) | 0x20;
  if (last === 0x66 || last === 0x79) return s.charCodeAt(0) === 45 ? -Infinity : Infinity; // inf, infinity
  if (last === 0x6e) return Number.NaN; // nan
  return Number(s);
}

/** pydantic-core `str_as_float`: Rust `trim().parse::<f64>()`, then one retry without underscores. */
export function strAsFloat(text: string): number | FloatError {
  const r = parseRustFloat(rustTrim(text));
  if (r !== null) return r;
  const u = stripUnderscores(text);
  const r2 = u === null ? null : parseRustFloat(u);
  return r2 === null ? 'float_parsing' : r2;
}

/** Lax `float` validation of Python input. */
export function laxFloat(input: PyValue): number | FloatError {
  if (input instanceof PyFloat) return input.value;
  if (typeof input === 'string') return strAsFloat(input);
  if (input instanceof PyInt) {
    if (typeof input.value === 'number') return input.value;
    const f = Number(input.value);
    return Number.isFinite(f) ? f : 'float_type'; // PyLong_AsDouble raises OverflowError
  }
  if (typeof input === 'boolean') return input ? 1 : 0;
  return 'float_type';
}

const FALSE_WORDS = new Set(['f', 'n', 'no', 'off', 'false']);
const TRUE_WORDS = new Set(['t', 'y', 'on', 'yes', 'true']);

function asciiLower(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += String.fromCharCode(c >= 65 && c <= 90 ? c + 32 : c);
  }
  return out;
}

/** pydantic-core `str_as_bool` (no trimming, ASCII case-insensitive). */
export function strAsBool(text: string): boolean | BoolError {
  if (text === '0') return false;
  if (text === '1') return true;
  if (text.length > 5) return 'bool_parsing';
  const l = asciiLower(text);
  if (FALSE_WORDS.has(l)) return false;
  if (TRUE_WORDS.has(l)) return true;
  return 'bool_parsing';
}

const I64_MIN = -9223372036854775808n;
const I64_MAX = 9223372036854775807n;

/** Lax `bool` validation of Python input. */
export function laxBool(input: PyValue): boolean | BoolError {
  if (typeof input === 'boolean') return input;
  if (typeof input === 'string') return strAsBool(input);
  if (input instanceof PyInt) {
    const n = input.value;
    if (n === 0) return false;
    if (n === 1) return true;
    // extract_i64 fails outside i64; the f64 fallback then fails float_as_int -> bool_type
    return typeof n === 'bigint' && (n < I64_MIN || n > I64_MAX) ? 'bool_type' : 'bool_parsing';
  }
  if (input instanceof PyFloat) {
    const i = floatAsInt(input.value);
    if (typeof i === 'string') return 'bool_type';
    return i === 0 ? false : i === 1 ? true : 'bool_parsing';
  }
  return 'bool_type';
}

/**
 * Length in code points (`chars().count()`), or -1 when the string holds a lone surrogate (which
 * pydantic's constrained-str validator rejects with `string_unicode`).
 */
export function codePointLength(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c > 0xdbff) return -1;
    const d = text.charCodeAt(i + 1);
    if (!(d >= 0xdc00 && d <= 0xdfff)) return -1;
    n--;
    i++;
  }
  return n;
}
