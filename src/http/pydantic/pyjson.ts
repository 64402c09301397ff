/**
 * CPython 3.11 `json.loads` (C scanner, strict=True) and
 * `json.dumps(v, ensure_ascii=False, allow_nan=False, separators=(",", ":"))`, byte for byte.
 */
import { PyFloat, PyInt, PyObject, type PyValue } from './pyvalue.js';

export { dumpsPy, PyJsonEncodeError } from './pydump.js';
export {
  fromPlain,
  isPyObject,
  PyFloat,
  PyInt,
  PyObject,
  type PyValue,
  pyFloatRepr,
  pyRepr,
  rustDisplayF64,
  toPlain,
} from './pyvalue.js';

export type PyParseResult =
  | { ok: true; value: PyValue }
  | {
      ok: false;
      /** Code-point index (astral characters count once), like `JSONDecodeError.pos`. */
      pos: number;
      /** `JSONDecodeError.msg` (no `: line X column Y` suffix). */
      msg: string;
      /**
       * Set when CPython raises something other than `JSONDecodeError` here: `'value'` for an integer
       * literal over 4300 digits (`ValueError`), `'recursion'` for nesting deeper than
       * `MAX_JSON_DEPTH` (`RecursionError`). FastAPI answers both with 400, not `json_invalid`.
       */
      python?: 'value' | 'recursion';
    };

/**
 * CPython 3.11 raises `RecursionError` once the C scanner's recursion guard trips; the exact depth
 * depends on how deep the interpreter stack already is (recursion limit 1000 minus the request
 * handler's frames). This is an approximation of that depth.
 */
export const MAX_JSON_DEPTH = 950;

/** Python's `sys.get_int_max_str_digits()` default. */
const INT_MAX_STR_DIGITS = 4300;

class Fail {
  constructor(
    readonly pos: number,
    readonly msg: string,
    readonly python?: 'value' | 'recursion',
  ) {}
}

const ESCAPES: Record<number, string> = {
  34: '"',
  92: '\\',
  47: '/',
  98: '\b',
  102: '\f',
  110: '\n',
  114: '\r',
  116: '\t',
};

function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

class Scanner {
  /** Index just after the last value scanned. */
  i = 0;
  constructor(readonly s: string) {}

  ws(i: number): number {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else return i;
    }
  }

  value(idx: number, depth: number): PyValue {
    const s = this.s;
    if (idx >= s.length) throw new Fail(idx, 'Expecting value');
    switch (s.charCodeAt(idx)) {
      case 34:
        return this.string(idx + 1);
      case 123:
        if (depth >= MAX_JSON_DEPTH)
          throw new Fail(idx, 'maximum recursion depth exceeded', 'recursion');
        return this.object(idx + 1, depth + 1);
      case 91:
        if (depth >= MAX_JSON_DEPTH)
          throw new Fail(idx, 'maximum recursion depth exceeded', 'recursion');
        return this.array(idx + 1, depth + 1);
      case 110:
        if (s.startsWith('null', idx)) return this.lit(idx + 4, null);
        break;
      case 116:
        if (s.startsWith('true', idx)) return this.lit(idx + 4, true);
        break;
      case 102:
        if (s.startsWith('false', idx)) return this.lit(idx + 5, false);
        break;
      case 78:
        if (s.startsWith('NaN', idx)) return this.lit(idx + 3, new PyFloat(Number.NaN));
        break;
      case 73:
        if (s.startsWith('Infinity', idx))
          return this.lit(idx + 8, new PyFloat(Number.POSITIVE_INFINITY));
        break;
      case 45:
        if (s.startsWith('-Infinity', idx))
          return this.lit(idx + 9, new PyFloat(Number.NEGATIVE_INFINITY));
        break;
    }
    return this.number(idx);
  }

  lit(end: number, v: PyValue): PyValue {
    this.i = end;
    return v;
  }

  number(start: number): PyValue {
    const s = this.s;
    const n = s.length;
    let i = start;
    if (s.charCodeAt(i) === 45) i++;
    let c = s.charCodeAt(i);
    if (c >= 49 && c <= 57) {
      i++;
      for (c = s.charCodeAt(i); c >= 48 && c <= 57; c = s.charCodeAt(++i));
    } else if (c === 48) i++;
    else throw new Fail(start, 'Expecting value');
    let isFloat = false;
    c = s.charCodeAt(i);
    if (c === 46 && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if (d >= 48 && d <= 57) {
        isFloat = true;
        i += 2;
        for (c = s.charCodeAt(i); c >= 48 && c <= 57; c = s.charCodeAt(++i));
      }
    }
    c = s.charCodeAt(i);
    if ((c === 101 || c === 69) && i + 1 < n) {
      const eStart = i++;
      c = s.charCodeAt(i);
      if ((c === 45 || c === 43) && i + 1 < n) i++;
      for (c = s.charCodeAt(i); c >= 48 && c <= 57; c = s.charCodeAt(++i));
      c = s.charCodeAt(i - 1);
      if (c >= 48 && c <= 57) isFloat = true;
      else i = eStart;
    }
    this.i = i;
    const lexeme = s.slice(start, i);
    if (isFloat) return new PyFloat(Number(lexeme));
    const digits = lexeme.charCodeAt(0) === 45 ? lexeme.length - 1 : lexeme.length;
    if (digits > INT_MAX_STR_DIGITS) {
      throw new Fail(
        start,
        'Exceeds the limit (4300 digits) for integer string conversion',
        'value',
      );
    }
    return PyInt.fromLexeme(lexeme);
  }

  string(start: number): string {
    const s = this.s;
    const n = s.length;
    const begin = start - 1;
    let out = '';
    let end = start;
    for (;;) {
      let next = end;
      let c = 0;
      for (; next < n; next++) {
        c = s.charCodeAt(next);
        if (c === 34 || c === 92) break;
        if (c <= 0x1f) throw new Fail(next, 'Invalid control character at');
      }
      if (next >= n) throw new Fail(begin, 'Unterminated string starting at');
      if (c === 34 && out === '') {
        this.i = next + 1;
        return s.slice(end, next);
      }
      out += s.slice(end, next);
      next++;
      if (c === 34) {
        end = next;
        break;
      }
      if (next === n) throw new Fail(begin, 'Unterminated string starting at');
      c = s.charCodeAt(next);
      if (c !== 117) {
        end = next + 1;
        const e = ESCAPES[c];
        if (e === undefined) throw new Fail(end - 2, 'Invalid \\escape');
        out += e;
        continue;
      }
      next++;
      end = next + 4;
      if (end >= n) throw new Fail(next - 1, 'Invalid \\uXXXX escape');
      let cp = 0;
      for (; next < end; next++) {
        const h = hexVal(s.charCodeAt(next));
        if (h < 0) throw new Fail(end - 5, 'Invalid \\uXXXX escape');
        cp = (cp << 4) | h;
      }
      if (
        cp >= 0xd800 &&
        cp <= 0xdbff &&
        end + 6 < n &&
        s.charCodeAt(end) === 92 &&
        s.charCodeAt(end + 1) === 117
      ) {
        next = end + 2;
        end += 6;
        let c2 = 0;
        for (; next < end; next++) {
          const h = hexVal(s.charCodeAt(next));
          if (h < 0) throw new Fail(end - 5, 'Invalid \\uXXXX escape');
          c2 = (c2 << 4) | h;
        }
        if (c2 >= 0xdc00 && c2 <= 0xdfff) out += String.fromCharCode(cp, c2);
        else {
          end -= 6;
          out += String.fromCharCode(cp);
        }
      } else out += String.fromCharCode(cp);
    }
    this.i = end;
    return out;
  }

  object(idx: number, depth: number): PyObject {
    const s = this.s;
    const map = new Map<string, PyValue>();
    idx = this.ws(idx);
    if (s.charCodeAt(idx) === 125) {
      this.i = idx + 1;
      return new PyObject(map);
    }
    do {
      if (s.charCodeAt(idx) !== 34)
        throw new Fail(idx, 'Expecting property name enclosed in double quotes');
      const key = this.string(idx + 1);
      idx = this.ws(this.i);
      if (s.charCodeAt(idx) !== 58) throw new Fail(idx, "Expecting ':' delimiter");
      map.set(key, this.value(this.ws(idx + 1), depth));
      idx = this.afterItem(125);
    } while (idx >= 0);
    return new PyObject(map);
  }

  array(idx: number, depth: number): PyValue[] {
    const out: PyValue[] = [];
    idx = this.ws(idx);
    if (this.s.charCodeAt(idx) === 93) {
      this.i = idx + 1;
      return out;
    }
    do {
      out.push(this.value(idx, depth));
      idx = this.afterItem(93);
    } while (idx >= 0);
    return out;
  }

  /**
   * After a member or element (at `this.i`): the start of the next one past the comma, or -1
   * with `this.i` past `close` when the object or array ends there.
   */
  afterItem(close: number): number {
    const idx = this.ws(this.i);
    const c = this.s.charCodeAt(idx);
    if (c === close) {
      this.i = idx + 1;
      return -1;
    }
    if (c !== 44) throw new Fail(idx, "Expecting ',' delimiter");
    return this.ws(idx + 1);
  }
}

/** Converts a UTF-16 index into a code-point index (a surrogate pair counts once). */
export function codePointIndex(text: string, utf16: number): number {
  let pos = utf16;
  for (let i = 1; i < utf16; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) {
      const p = text.charCodeAt(i - 1);
      if (p >= 0xd800 && p <= 0xdbff) pos--;
    }
  }
  return pos;
}

/** Python `json.loads(text)` for an already-decoded `str` (the BOM check of `loads(str)` excluded). */
export function parsePyJson(text: string): PyParseResult {
  const sc = new Scanner(text);
  try {
    const value = sc.value(sc.ws(0), 0);
    const end = sc.ws(sc.i);
    if (end !== text.length)
      return { ok: false, pos: codePointIndex(text, end), msg: 'Extra data' };
    return { ok: true, value };
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    const r: PyParseResult = { ok: false, pos: codePointIndex(text, e.pos), msg: e.msg };
    if (e.python) r.python = e.python;
    return r;
  }
}
