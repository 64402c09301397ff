import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dumpsPy,
  fromPlain,
  isPyObject,
  MAX_JSON_DEPTH,
  PyFloat,
  PyInt,
  PyJsonEncodeError,
  PyObject,
  type PyValue,
  parsePyJson,
  pyFloatRepr,
  pyRepr,
  rustDisplayF64,
  toPlain,
} from '../../../src/http/pydantic/pyjson.js';

function parse(text: string): PyValue {
  const r = parsePyJson(text);
  if (!r.ok) throw new Error(`unexpected parse failure: ${r.msg} at ${r.pos}`);
  return r.value;
}

/** parse + dump: the canonical Python rendering of a JSON text. */
const roundTrip = (text: string) => dumpsPy(parse(text));

describe('parsePyJson: CPython 3.11 JSONDecodeError (msg, pos), doc §7 <=3.12 column', () => {
  const rows: [string, number, string][] = [
    ['{some broken json}', 1, 'Expecting property name enclosed in double quotes'],
    ['{"a":1,}', 7, 'Expecting property name enclosed in double quotes'],
    ['[1,2,]', 5, 'Expecting value'],
    ["{'a':1}", 1, 'Expecting property name enclosed in double quotes'],
    ['{"a" 1}', 5, "Expecting ':' delimiter"],
    ['{"a":1 "b":2}', 7, "Expecting ',' delimiter"],
    ['{"a":1', 6, "Expecting ',' delimiter"],
    ['{"a":tru}', 5, 'Expecting value'],
    ['[', 1, 'Expecting value'],
    ['nul', 0, 'Expecting value'],
    ['{"a":"x', 5, 'Unterminated string starting at'],
    ['"abc', 0, 'Unterminated string starting at'],
    ['{"a":1}x', 7, 'Extra data'],
    ['{"a":1} {"b":2}', 8, 'Extra data'],
    ['{"a":"\\q"}', 6, 'Invalid \\escape'],
    ['{"a":"\\u12"}', 7, 'Invalid \\uXXXX escape'],
    ['{"a":"\u0001"}', 6, 'Invalid control character at'],
    ['   ', 3, 'Expecting value'],
    ['{"a":01}', 6, "Expecting ',' delimiter"],
  ];
  it.each(rows)('%j -> pos %i, %s', (text, pos, msg) => {
    expect(parsePyJson(text)).toEqual({ ok: false, pos, msg });
  });

  it('reports code-point positions: é counts once, an emoji (surrogate pair) counts once', () => {
    expect(parsePyJson('{"é":1,}')).toEqual({
      ok: false,
      pos: 7,
      msg: 'Expecting property name enclosed in double quotes',
    });
    expect(parsePyJson('{"😀":1,}')).toEqual({
      ok: false,
      pos: 7,
      msg: 'Expecting property name enclosed in double quotes',
    });
    // UTF-16 index 9, code-point index 7
    expect(parsePyJson('["😀😀", x]')).toMatchObject({ pos: 7, msg: 'Expecting value' });
  });

  it('follows the C scanner on edge cases', () => {
    expect(parsePyJson('')).toMatchObject({ pos: 0, msg: 'Expecting value' });
    expect(parsePyJson('-')).toMatchObject({ pos: 0, msg: 'Expecting value' });
    expect(parsePyJson('1.')).toMatchObject({ pos: 1, msg: 'Extra data' });
    expect(parsePyJson('1e+')).toMatchObject({ pos: 1, msg: 'Extra data' });
    expect(parsePyJson('"\\u0041')).toMatchObject({ pos: 2, msg: 'Invalid \\uXXXX escape' });
    expect(parsePyJson('"\\ud83d\\ude0x"')).toMatchObject({
      pos: 8,
      msg: 'Invalid \\uXXXX escape',
    });
    expect(parsePyJson('"abc\\')).toMatchObject({ pos: 0, msg: 'Unterminated string starting at' });
    expect(parsePyJson('\ufeff{}')).toMatchObject({ pos: 0, msg: 'Expecting value' });
    expect(parsePyJson('[1]\u00a0')).toMatchObject({ pos: 3, msg: 'Extra data' });
  });

  it('flags the non-JSONDecodeError failures: >4300-digit ints and deep nesting', () => {
    expect(parsePyJson('1'.repeat(4300))).toMatchObject({ ok: true });
    expect(parsePyJson(`-${'1'.repeat(4300)}`)).toMatchObject({ ok: true });
    expect(parsePyJson(`[${'1'.repeat(4301)}]`)).toMatchObject({ ok: false, python: 'value' });
    expect(parsePyJson(`${'1'.repeat(5000)}.5`)).toMatchObject({ ok: true });
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(parsePyJson(deep(MAX_JSON_DEPTH))).toMatchObject({ ok: true });
    expect(parsePyJson(deep(MAX_JSON_DEPTH + 1))).toMatchObject({ ok: false, python: 'recursion' });
  });
});

describe('parsePyJson: values', () => {
  it('accepts NaN, Infinity, -Infinity and any top-level value', () => {
    const v = parse('[NaN,Infinity,-Infinity]') as PyFloat[];
    expect(v.map((f) => f.value)).toEqual([Number.NaN, Infinity, -Infinity]);
    expect(parse('"abc"')).toBe('abc');
    expect(parse(' true ')).toBe(true);
    expect(parse('null')).toBe(null);
    expect(parse('42')).toEqual(new PyInt(42));
  });

  it('keeps int and float apart, and big ints exactly', () => {
    expect(parse('1')).toBeInstanceOf(PyInt);
    expect(parse('1.0')).toBeInstanceOf(PyFloat);
    expect(parse('1e2')).toBeInstanceOf(PyFloat);
    expect((parse('-0') as PyInt).value).toBe(0);
    expect(Object.is((parse('-0.0') as PyFloat).value, -0)).toBe(true);
    expect((parse('123456789012345678901234567890') as PyInt).value).toBe(
      123456789012345678901234567890n,
    );
    expect(roundTrip('[123456789012345678901234567890,-9007199254740993]')).toBe(
      '[123456789012345678901234567890,-9007199254740993]',
    );
  });

  it('decodes escapes and joins surrogate-pair escapes', () => {
    expect(parse('"a\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00"')).toBe(
      'a"\\/\b\f\n\r\t\u00e9\u{1f600}',
    );
    expect(parse('"\\ud800x"')).toBe('\ud800x');
  });

  it('keeps insertion order, integer-like keys included; duplicates: last value, first position', () => {
    const v = parse('{"b":1,"2":2,"a":3,"10":4,"b":5}');
    expect(isPyObject(v)).toBe(true);
    expect([...(v as PyObject).map.keys()]).toEqual(['b', '2', 'a', '10']);
    expect(dumpsPy(v)).toBe('{"b":5,"2":2,"a":3,"10":4}');
  });

  it('treats __proto__ and constructor as ordinary keys', () => {
    const v = parse('{"__proto__":{"polluted":1},"constructor":2}') as PyObject;
    expect([...v.map.keys()]).toEqual(['__proto__', 'constructor']);
    const plain = toPlain(v) as Record<string, unknown>;
    // An ordinary object (Drizzle inspects `constructor`), with __proto__ as an own key, not the prototype.
    expect(Object.getPrototypeOf(plain)).toBe(Object.prototype);
    expect(Object.keys(plain)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(plain, '__proto__')?.value).toEqual({ polluted: 1 });
    expect(plain.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(dumpsPy(v)).toBe('{"__proto__":{"polluted":1},"constructor":2}');
  });
});

describe('dumpsPy: json.dumps(ensure_ascii=False, allow_nan=False, separators=(",",":"))', () => {
  it('writes floats as Python repr (doc §14)', () => {
    expect(roundTrip('[1.0,1e16,1e-5,100.0,0.1,1e15,1.5e300,-0.0,0.0001,2.5e-7,1E2]')).toBe(
      '[1.0,1e+16,1e-05,100.0,0.1,1000000000000000.0,1.5e+300,-0.0,0.0001,2.5e-07,100.0]',
    );
    expect(() => roundTrip('1E400')).toThrow(PyJsonEncodeError);
  });

  it('writes Python float repr for edge doubles', () => {
    expect(pyFloatRepr(1e16)).toBe('1e+16');
    expect(pyFloatRepr(9999999999999998)).toBe('9999999999999998.0');
    expect(pyFloatRepr(0.00009999)).toBe('9.999e-05');
    expect(pyFloatRepr(123456789.125)).toBe('123456789.125');
    expect(pyFloatRepr(5e-324)).toBe('5e-324');
    expect(pyFloatRepr(1.7976931348623157e308)).toBe('1.7976931348623157e+308');
    expect(pyFloatRepr(-1e22)).toBe('-1e+22');
  });

  it('renders Rust Display for f64 (pydantic messages)', () => {
    expect(rustDisplayF64(1)).toBe('1');
    expect(rustDisplayF64(0.5)).toBe('0.5');
    expect(rustDisplayF64(1e20)).toBe('100000000000000000000');
    expect(rustDisplayF64(1e-7)).toBe('0.0000001');
    expect(rustDisplayF64(-2.5)).toBe('-2.5');
  });

  it('writes raw UTF-8 and escapes only quote, backslash and C0 controls (lowercase hex)', () => {
    expect(dumpsPy('é😀\u2028\u007f"\\\n\t\r\b\f\u0001\u001f')).toBe(
      '"é😀\u2028\u007f\\"\\\\\\n\\t\\r\\b\\f\\u0001\\u001f"',
    );
  });

  it('throws for NaN/Infinity and lone surrogates (FastAPI answers 500)', () => {
    expect(() => dumpsPy(parse('NaN'))).toThrow(PyJsonEncodeError);
    expect(() => dumpsPy({ input: parse('[-Infinity]') })).toThrow(PyJsonEncodeError);
    expect(() => dumpsPy(Number.NaN)).toThrow(PyJsonEncodeError);
    expect(() => dumpsPy(parse('"\\udc00"'))).toThrow(PyJsonEncodeError);
    expect(() => dumpsPy(new Map([['\ud800', 1]]))).toThrow(PyJsonEncodeError);
    expect(dumpsPy('\u{1f600}')).toBe('"😀"');
  });

  it('accepts plain JS values: integral numbers as ints, others as float repr', () => {
    expect(dumpsPy({ a: 1, b: 1.5, c: [true, null, 'x'], d: 10n, e: 1e21, f: undefined })).toBe(
      '{"a":1,"b":1.5,"c":[true,null,"x"],"d":10,"e":1000000000000000000000}',
    );
    expect(dumpsPy(new Map([['z', new PyFloat(2)]]))).toBe('{"z":2.0}');
    expect(
      dumpsPy({
        input: new PyObject(
          new Map([
            ['2', 1],
            ['1', 2],
          ]) as never,
        ),
      }),
    ).toBe('{"input":{"2":1,"1":2}}');
    expect(() => dumpsPy(undefined)).toThrow(TypeError);
  });

  it('fromPlain/toPlain convert between the trees', () => {
    expect(fromPlain({ a: [1, 1.5, 'x'] })).toEqual(
      new PyObject(new Map([['a', [new PyInt(1), new PyFloat(1.5), 'x']]])),
    );
    expect(toPlain(parse('{"a":[1,2.5,123456789012345678901234567890]}'))).toEqual({
      a: [1, 2.5, 1.2345678901234568e29],
    });
    expect(pyRepr("it's")).toBe('"it\'s"');
    expect(pyRepr('a\nb\u00a0')).toBe("'a\\nb\\xa0'");
  });
});

describe('properties', () => {
  it('parsePyJson(JSON.stringify(x)) gives back x', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (x) => {
        const text = JSON.stringify(x);
        expect(toPlain(parse(text))).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('dumpsPy of a parsed text re-parses to the same tree, and is valid JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (x) => {
        const text = JSON.stringify(x);
        const dumped = roundTrip(text);
        expect(roundTrip(dumped)).toBe(dumped);
        expect(JSON.parse(dumped)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('pyFloatRepr round-trips every finite double and uses repr notation', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (d) => {
        const s = pyFloatRepr(d);
        expect(Number(s)).toBe(d);
        expect(s).toMatch(/^-?(\d+\.\d+|\d(\.\d+)?e[+-]\d{2,3})$/);
        expect(rustDisplayF64(d)).not.toMatch(/e/);
      }),
      { numRuns: 500 },
    );
  });

  it('dumpsPy escapes well-formed strings exactly like JSON.stringify, and parses back', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), (s) => {
        expect(dumpsPy(s)).toBe(JSON.stringify(s));
        expect(parse(dumpsPy(s))).toBe(s);
      }),
      { numRuns: 300 },
    );
  });
});
