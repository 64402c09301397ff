/**
 * Lossless value tree for what CPython's `json.loads` produces, plus the Python/Rust number and
 * string renderings that FastAPI/pydantic error bodies depend on.
 */

/** A Python `int`. `value` is a `number` when it is a safe integer, otherwise a `bigint`. */
export class PyInt {
  constructor(readonly value: number | bigint) {}

  /** Builds from a JSON integer lexeme (`-?(0|[1-9][0-9]*)`). `-0` becomes 0 like Python. */
  static fromLexeme(lexeme: string): PyInt {
    if (lexeme.length <= 15) return new PyInt(Number(lexeme) || 0);
    return PyInt.fromBigInt(BigInt(lexeme));
  }

  static fromBigInt(b: bigint): PyInt {
    return new PyInt(b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b);
  }

  toString(): string {
    return this.value.toString();
  }
}

/** A Python `float` (an IEEE double, NaN and infinities included). */
export class PyFloat {
  constructor(readonly value: number) {}
}

/** A Python `dict` with string keys: insertion order is kept, `__proto__` is an ordinary key. */
export class PyObject {
  readonly map: Map<string, PyValue>;
  constructor(map?: Map<string, PyValue>) {
    this.map = map ?? new Map();
  }
  get size(): number {
    return this.map.size;
  }
  get(key: string): PyValue | undefined {
    return this.map.get(key);
  }
}

export type PyValue = null | boolean | string | PyInt | PyFloat | PyValue[] | PyObject;

export function isPyObject(v: unknown): v is PyObject {
  return v instanceof PyObject;
}

/** Sets `o[k] = v` as an own data property, even for `__proto__`. */
export function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/**
 * Converts to ordinary JS values. Ints become `number` (exact when safe; integers beyond 2^53 are
 * rounded to the nearest double on purpose, so no `bigint` ever leaks out). Floats become `number`.
 * Objects become ordinary objects (libraries such as Drizzle inspect `constructor`) whose keys are
 * defined as own properties, so `__proto__`/`constructor` keys stay plain data and never touch the
 * prototype; note that JS then lists integer-like keys first.
 */
export function toPlain(v: PyValue): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof PyInt) return typeof v.value === 'number' ? v.value : Number(v.value);
  if (v instanceof PyFloat) return v.value;
  if (Array.isArray(v)) return v.map(toPlain);
  const out: Record<string, unknown> = {};
  for (const [k, x] of v.map) setOwn(out, k, toPlain(x));
  return out;
}

/**
 * Converts ordinary JS values into a `PyValue`: integral numbers and bigints become `PyInt`, other
 * numbers `PyFloat`, plain objects and `Map`s `PyObject`. `undefined`, functions and symbols throw.
 */
export function fromPlain(v: unknown): PyValue {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? intFromNumber(v) : new PyFloat(v);
  if (typeof v === 'bigint') return PyInt.fromBigInt(v);
  if (v instanceof PyInt || v instanceof PyFloat || v instanceof PyObject) return v;
  if (Array.isArray(v)) return v.map(fromPlain);
  if (v instanceof Map) {
    const m = new Map<string, PyValue>();
    for (const [k, x] of v) m.set(String(k), fromPlain(x));
    return new PyObject(m);
  }
  if (typeof v === 'object') {
    const m = new Map<string, PyValue>();
    for (const k of Object.keys(v)) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) m.set(k, fromPlain(x));
    }
    return new PyObject(m);
  }
  throw new TypeError(`Object of type ${typeof v} is not JSON serializable`);
}

function intFromNumber(n: number): PyInt {
  return Number.isSafeInteger(n) ? new PyInt(n === 0 ? 0 : n) : PyInt.fromBigInt(BigInt(n));
}

/** Shortest round-trip digits and decimal exponent of a finite non-zero double (sign dropped). */
function digitsOf(x: number): { digits: string; exp: number } {
  const s = Math.abs(x).toExponential();
  const e = s.indexOf('e');
  const mant = s.slice(0, e);
  return { digits: mant.length > 1 ? mant[0] + mant.slice(2) : mant, exp: Number(s.slice(e + 1)) };
}

function fixed(digits: string, exp: number): string {
  if (exp < 0) return `0.${'0'.repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return digits + '0'.repeat(exp + 1 - digits.length);
  return `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}

/** Python `repr(float)` (also what `json.dumps` writes): `1.0`, `1e+16`, `1e-05`, `-0.0`, `inf`. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Number.POSITIVE_INFINITY) return 'inf';
  if (x === Number.NEGATIVE_INFINITY) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const a = Math.abs(x);
  if (a >= 1e-4 && a < 1e16) {
    const s = String(x);
    return Number.isInteger(x) ? `${s}.0` : s;
  }
  const { digits, exp } = digitsOf(x);
  const sign = x < 0 ? '-' : '';
  const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const e = Math.abs(exp);
  return `${sign}${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
}

/** Rust `Display` for `f64` (used in pydantic messages): never exponent notation, `1.0` -> `1`. */
export function rustDisplayF64(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Number.POSITIVE_INFINITY) return 'inf';
  if (x === Number.NEGATIVE_INFINITY) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const { digits, exp } = digitsOf(x);
  return (x < 0 ? '-' : '') + fixed(digits, exp);
}

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** Python `repr(str)`. */
export function pyReprStr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === q || ch === '\\') out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x7f || ch === ' ' || !NON_PRINTABLE.test(ch)) out += ch;
    else if (cp <= 0xff) out += `\\x${hex(cp, 2)}`;
    else if (cp <= 0xffff) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return out + q;
}

/** Python `repr()` of a JSON-ish literal value (str, int, float, bool, None). */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'string') return pyReprStr(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v).toString() : pyFloatRepr(v);
  if (v instanceof PyInt) return v.toString();
  if (v instanceof PyFloat) return pyFloatRepr(v.value);
  return String(v);
}
