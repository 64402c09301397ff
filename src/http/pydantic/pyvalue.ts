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

export function isPyObject(value: unknown): value is PyObject {
  return value instanceof PyObject;
}

/** Sets `o[k] = v` as an own data property, even for `__proto__`. */
export function setOwn(target: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(target, k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else target[k] = v;
}

/**
 * Converts to ordinary JS values. Ints become `number` (exact when safe; integers beyond 2^53 are
 * rounded to the nearest double on purpose, so no `bigint` ever leaks out). Floats become `number`.
 * Objects become ordinary objects (libraries such as Drizzle inspect `constructor`) whose keys are
 * defined as own properties, so `__proto__`/`constructor` keys stay plain data and never touch the
 * prototype; note that JS then lists integer-like keys first.
 */
export function toPlain(input: PyValue): unknown {
  if (input === null || typeof input !== 'object') return input;
  if (input instanceof PyInt)
    return typeof input.value === 'number' ? input.value : Number(input.value);
  if (input instanceof PyFloat) return input.value;
  if (Array.isArray(input)) return input.map(toPlain);
  const out: Record<string, unknown> = {};
  for (const [k, x] of input.map) setOwn(out, k, toPlain(x));
  return out;
}

/**
 * Converts ordinary JS values into a `PyValue`: integral numbers and bigints become `PyInt`, other
 * numbers `PyFloat`, plain objects and `Map`s `PyObject`. `undefined`, functions and symbols throw.
 */
export function fromPlain(value: unknown): PyValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number')
    return Number.isInteger(value) ? intFromNumber(value) : new PyFloat(value);
  if (typeof value === 'bigint') return PyInt.fromBigInt(value);
  if (value instanceof PyInt || value instanceof PyFloat || value instanceof PyObject) return value;
  if (Array.isArray(value)) return value.map(fromPlain);
  if (value instanceof Map) {
    const m = new Map<string, PyValue>();
    for (const [k, x] of value) m.set(String(k), fromPlain(x));
    return new PyObject(m);
  }
  if (typeof value === 'object') {
    const m = new Map<string, PyValue>();
    for (const k of Object.keys(value)) {
      const x = (value as Record<string, unknown>)[k];
      if (x !== undefined) m.set(k, fromPlain(x));
    }
    return new PyObject(m);
  }
  throw new TypeError(`Object of type ${typeof value} is not JSON serializable`);
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
export function pyFloatRepr(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (value === Number.POSITIVE_INFINITY) return 'inf';
  if (value === Number.NEGATIVE_INFINITY) return '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const a = Math.abs(value);
  if (a >= 1e-4 && a < 1e16) {
    const s = String(value);
    return Number.isInteger(value) ? `${s}.0` : s;
  }
  const { digits, exp } = digitsOf(value);
  const sign = value < 0 ? '-' : '';
  const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  const e = Math.abs(exp);
  return `${sign}${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
}

/** Rust `Display` for `f64` (used in pydantic messages): never exponent notation, `1.0` -> `1`. */
export function rustDisplayF64(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return 'inf';
  if (value === Number.NEGATIVE_INFINITY) return '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const { digits, exp } = digitsOf(value);
  return (value < 0 ? '-' : '') + fixed(digits, exp);
}

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/** Python `repr(str)`. */
export function pyReprStr(text: string): string {
  const q = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of text) {
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
export function pyRepr(input: unknown): string {
  if (input === null || input === undefined) return 'None';
  if (input === true) return 'True';
  if (input === false) return 'False';
  if (typeof input === 'string') return pyReprStr(input);
  if (typeof input === 'bigint') return input.toString();
  if (typeof input === 'number')
    return Number.isInteger(input) ? BigInt(input).toString() : pyFloatRepr(input);
  if (input instanceof PyInt) return input.toString();
  if (input instanceof PyFloat) return pyFloatRepr(input.value);
  return String(input);
}
