import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { dumpsPy } from '../../../src/http/pydantic/pyjson.js';
import { validate } from '../../../src/http/pydantic/validate.js';
import { errMsg, errType, field, parse, run } from './helpers.js';

describe('field-level cases (doc §5)', () => {
  const S = (o: Parameters<typeof Type.String>[0] = {}) => Type.String(o);
  it('string constraints: first failure only, lengths in code points', () => {
    expect(field(S({ minLength: 3 }), '"ab"')).toEqual([
      'string_too_short',
      'String should have at least 3 characters',
      '"ab"',
    ]);
    expect(field(S({ maxLength: 1 }), '"ab"')).toEqual([
      'string_too_long',
      'String should have at most 1 character',
      '"ab"',
    ]);
    expect(field(S({ maxLength: 10 }), '"abcdefghijk"')).toEqual([
      'string_too_long',
      'String should have at most 10 characters',
      '"abcdefghijk"',
    ]);
    expect(field(S({ pattern: '^[A-Z]+$' }), '"ab"')).toEqual([
      'string_pattern_mismatch',
      "String should match pattern '^[A-Z]+$'",
      '"ab"',
    ]);
    expect(errType(S({ minLength: 3, maxLength: 1, pattern: 'x' }), '"ab"')).toBe(
      'string_too_short',
    );
    expect(errType(S({ maxLength: 1, pattern: 'x' }), '"ab"')).toBe('string_too_long');
    expect(field(S({ minLength: 2, maxLength: 2 }), '"😀😀"')).toEqual({ ok: '😀😀' });
    expect(field(S({ minLength: 2 }), '"😀"')).toEqual([
      'string_too_short',
      'String should have at least 2 characters',
      '"😀"',
    ]);
  });

  it('ctx of string errors', () => {
    const r = validate(Type.Object({ f: S({ pattern: '^[A-Z]+$' }) }), parse('{"f":"ab"}'), []);
    expect(!r.ok && r.errors[0]).toEqual({
      type: 'string_pattern_mismatch',
      loc: ['f'],
      msg: "String should match pattern '^[A-Z]+$'",
      input: 'ab',
      ctx: { pattern: '^[A-Z]+$' },
    });
    expect(!r.ok && Object.keys(r.errors[0]!)).toEqual(['type', 'loc', 'msg', 'input', 'ctx']);
  });

  it.each(['5', '1.5', 'true', 'null', '[]', '{}'])('str never coerces %s', (json) => {
    expect(field(S(), json)).toEqual(['string_type', 'Input should be a valid string', json]);
  });

  it('str | None', () => {
    const N = Type.Union([S({ minLength: 2 }), Type.Null()]);
    expect(field(N, '5')).toEqual(['string_type', 'Input should be a valid string', '5']);
    expect(field(N, 'null')).toEqual({ ok: null });
    expect(errType(N, '"a"')).toBe('string_too_short');
  });

  it('bool', () => {
    const B = Type.Boolean();
    for (const t of ['"yes"', '"true"', '"True"', '"on"', '"1"', '1', '1.0', 'true', '"Y"', '"T"'])
      expect(field(B, t)).toEqual({ ok: true });
    for (const t of ['"no"', '"false"', '"off"', '"0"', '0', '0.0', 'false', '"N"', '"F"'])
      expect(field(B, t)).toEqual({ ok: false });
    const parsing = 'Input should be a valid boolean, unable to interpret input';
    for (const t of ['"maybe"', '""', '" true"', '2', '-1', '2.0', '"ｔrue"'])
      expect(field(B, t)).toEqual(['bool_parsing', parsing, t]);
    for (const t of ['[]', '{}', 'null', '1.5', '1e20', '100000000000000000000000'])
      expect(field(B, t)).toEqual([
        'bool_type',
        'Input should be a valid boolean',
        t === '1e20' ? '1e+20' : t,
      ]);
  });

  it('int', () => {
    const I = Type.Integer();
    const parsing = 'Input should be a valid integer, unable to parse string as an integer';
    for (const t of [
      '"abc"',
      '"12.5"',
      '"1e3"',
      '"12."',
      '""',
      '"1__0"',
      '"--1"',
      '"+-1"',
      '"0x10"',
    ])
      expect(field(I, t)).toEqual(['int_parsing', parsing, t]);
    const ok: [string, number][] = [
      ['"12"', 12],
      ['" 12 "', 12],
      ['"+12"', 12],
      ['"012"', 12],
      ['"12.0"', 12],
      ['"1_000"', 1000],
      ['"-0012"', -12],
      ['"00.0"', 0],
      ['"\\u00a012\\u0085"', 12],
      ['2.0', 2],
      ['true', 1],
      ['false', 0],
      ['-7', -7],
    ];
    for (const [t, v] of ok) expect(field(I, t)).toEqual({ ok: v });
    expect(field(I, '1.5')).toEqual([
      'int_from_float',
      'Input should be a valid integer, got a number with a fractional part',
      '1.5',
    ]);
    for (const t of ['null', '[]', '{}'])
      expect(field(I, t)).toEqual(['int_type', 'Input should be a valid integer', t]);
    expect(field(I, '1e20')).toEqual([
      'int_parsing_size',
      'Unable to parse input string as an integer, exceeded maximum size',
      '1e+20',
    ]);
    expect(errType(I, `"${'1'.repeat(4301)}"`)).toBe('int_parsing_size');
    expect(errType(I, `" ${'1'.repeat(4301)}"`)).toBe('int_parsing');
    const r = validate(Type.Object({ f: I }), parse('{"f":NaN}'), ['body']);
    expect(!r.ok && [r.errors[0]!.type, r.errors[0]!.msg]).toEqual([
      'finite_number',
      'Input should be a finite number',
    ]);
    expect(!r.ok && (() => dumpsPy({ detail: r.errors }))).toThrow();
  });

  it('float', () => {
    const F = Type.Number();
    expect(field(F, '"abc"')).toEqual([
      'float_parsing',
      'Input should be a valid number, unable to parse string as a number',
      '"abc"',
    ]);
    for (const t of ['null', '[]', '{}'])
      expect(field(F, t)).toEqual(['float_type', 'Input should be a valid number', t]);
    for (const [t, v] of [
      ['"50.5"', 50.5],
      ['5', 5],
      ['true', 1],
      ['" .5 "', 0.5],
      ['"5."', 5],
      ['"1_0.5"', 10.5],
      ['"-inf"', -Infinity],
    ] as const)
      expect(field(F, t)).toEqual({ ok: v });
    expect(errType(F, '" 1_0 "')).toBe('float_parsing');
  });

  it('numeric bounds: ctx as JSON numbers, msg in Rust Display', () => {
    const gt = validate(
      Type.Object({ f: Type.Integer({ exclusiveMinimum: 0 }) }),
      parse('{"f":-1}'),
      [],
    );
    expect(!gt.ok && dumpsPy(gt.errors)).toBe(
      '[{"type":"greater_than","loc":["f"],"msg":"Input should be greater than 0","input":-1,"ctx":{"gt":0}}]',
    );
    const cases: [object, string, string][] = [
      [
        Type.Integer({ minimum: 1 }),
        '0',
        'greater_than_equal|Input should be greater than or equal to 1|{"ge":1}',
      ],
      [
        Type.Integer({ maximum: 1 }),
        '2',
        'less_than_equal|Input should be less than or equal to 1|{"le":1}',
      ],
      [
        Type.Integer({ exclusiveMaximum: 1 }),
        '1',
        'less_than|Input should be less than 1|{"lt":1}',
      ],
      [
        Type.Number({ exclusiveMinimum: 1 }),
        '0.5',
        'greater_than|Input should be greater than 1|{"gt":1.0}',
      ],
      [
        Type.Number({ maximum: 1e20 }),
        '1e21',
        'less_than_equal|Input should be less than or equal to 100000000000000000000|{"le":1e+20}',
      ],
      [
        Type.Number({ minimum: 0.5 }),
        'NaN',
        'greater_than_equal|Input should be greater than or equal to 0.5|{"ge":0.5}',
      ],
    ];
    for (const [schema, json, expected] of cases) {
      const r = validate(Type.Object({ f: schema as never }), parse(`{"f":${json}}`), []);
      expect(
        !r.ok && [r.errors[0]!.type, r.errors[0]!.msg, dumpsPy(r.errors[0]!.ctx)].join('|'),
      ).toBe(expected);
    }
    expect(() => field(Type.Number({ multipleOf: 0.1 }), '0.3')).toThrow(
      /unsupported keyword 'multipleOf' at #\/properties\/f/,
    );
    expect(field(Type.Integer({ maximum: 5 }), '"5"')).toEqual({ ok: 5 });
  });

  it('literal and enum use the Python repr of the expected values', () => {
    const K = Type.Union([Type.Literal('call'), Type.Literal('sms'), Type.Literal('voicemail')]);
    const r = validate(Type.Object({ k: K }), parse('{"k":"fax"}'), ['body']);
    expect(!r.ok && dumpsPy(r.errors)).toBe(
      '[{"type":"literal_error","loc":["body","k"],"msg":"Input should be \'call\', \'sms\' or \'voicemail\'","input":"fax","ctx":{"expected":"\'call\', \'sms\' or \'voicemail\'"}}]',
    );
    expect(field(K, '"sms"')).toEqual({ ok: 'sms' });
    expect(field(Type.Literal('a'), '"b"')).toEqual([
      'literal_error',
      "Input should be 'a'",
      '"b"',
    ]);
    expect(errMsg(Type.Union([Type.Literal('a'), Type.Literal('b')]), '"c"')).toBe(
      "Input should be 'a' or 'b'",
    );
    const quotes = Type.Union([Type.Literal("it's"), Type.Literal('a"b'), Type.Literal('c')]);
    expect(errMsg(quotes, '"x"')).toBe(`Input should be "it's", 'a"b' or 'c'`);
    const E = Type.Enum(['a', 'b', 'c']);
    const e = validate(Type.Object({ e: E }), parse('{"e":"x"}'), ['body']);
    expect(!e.ok && dumpsPy(e.errors)).toBe(
      '[{"type":"enum","loc":["body","e"],"msg":"Input should be \'a\', \'b\' or \'c\'","input":"x","ctx":{"expected":"\'a\', \'b\' or \'c\'"}}]',
    );
    const nullable = Type.Union([Type.Union([Type.Literal('a'), Type.Literal('b')]), Type.Null()]);
    expect(field(nullable, 'null')).toEqual({ ok: null });
    expect(errMsg(nullable, '"c"')).toBe("Input should be 'a' or 'b'");
    const ints = Type.Union([Type.Literal(1), Type.Literal(2)]);
    expect(field(ints, '1.0')).toEqual({ ok: 1 });
    expect(field(ints, 'true')).toEqual({ ok: 1 });
    expect(field(ints, '"1"')).toEqual(['literal_error', 'Input should be 1 or 2', '"1"']);
  });

  it('list: list_type, too_short / too_long with ctx, item errors', () => {
    const L = Type.Array(Type.Integer(), { minItems: 1, maxItems: 2 });
    for (const t of ['"x"', '{}', '1', 'null'])
      expect(field(L, t)).toEqual(['list_type', 'Input should be a valid list', t]);
    const short = validate(Type.Object({ f: L }), parse('{"f":[]}'), ['body']);
    expect(!short.ok && dumpsPy(short.errors)).toBe(
      '[{"type":"too_short","loc":["body","f"],"msg":"List should have at least 1 item after validation, not 0","input":[],"ctx":{"field_type":"List","min_length":1,"actual_length":0}}]',
    );
    // past max_length only too_long is reported, even if items are invalid
    const long = validate(Type.Object({ f: L }), parse('{"f":["x",1,2]}'), ['body']);
    expect(!long.ok && dumpsPy(long.errors)).toBe(
      '[{"type":"too_long","loc":["body","f"],"msg":"List should have at most 2 items after validation, not 3","input":["x",1,2],"ctx":{"field_type":"List","max_length":2,"actual_length":3}}]',
    );
    const items = validate(
      Type.Object({ f: Type.Array(Type.Integer(), { minItems: 3 }) }),
      parse('{"f":["a",1]}'),
      [],
    );
    expect(!items.ok && items.errors.map((e) => [e.type, e.loc])).toEqual([
      ['int_parsing', ['f', 0]],
    ]);
    expect(field(Type.Array(Type.Integer()), '["1", 2.0, true]')).toEqual({ ok: [1, 2, 1] });
  });

  it('dict (record): dict_type, per-key errors', () => {
    const R = Type.Record(Type.String(), Type.Integer());
    for (const t of ['[1]', '"x"', '1', 'null'])
      expect(field(R, t)).toEqual(['dict_type', 'Input should be a valid dictionary', t]);
    const r = validate(Type.Object({ f: R }), parse('{"f":{"a":"x","b":1,"c":null}}'), []);
    expect(!r.ok && r.errors.map((e) => [e.type, e.loc])).toEqual([
      ['int_parsing', ['f', 'a']],
      ['int_type', ['f', 'c']],
    ]);
    const ok = field(R, '{"b":"2","__proto__":3}') as { ok: Record<string, unknown> };
    expect(Object.keys(ok.ok)).toEqual(['b', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(ok.ok, '__proto__')?.value).toBe(3);
  });

  it('nested model: model_attributes_type for non-dict input, missing carries the sub-dict', () => {
    const M = Type.Object({
      sub: Type.Object({ x: Type.Integer() }, { additionalProperties: false }),
    });
    for (const t of ['[1]', '"x"', '1', 'null', 'true'])
      expect(run(M, `{"sub":${t}}`)).toBe(
        `{"detail":[{"type":"model_attributes_type","loc":["body","sub"],"msg":"Input should be a valid dictionary or object to extract fields from","input":${t}}]}`,
      );
    expect(run(M, '{"sub":{"y":1.0}}')).toBe(
      '{"detail":[{"type":"missing","loc":["body","sub","x"],"msg":"Field required","input":{"y":1.0}},{"type":"extra_forbidden","loc":["body","sub","y"],"msg":"Extra inputs are not permitted","input":1.0}]}',
    );
  });
});

describe('patterns: the subset that reads the same in Rust regex and JS', () => {
  const P = (pattern: string, json: string) => field(Type.String({ pattern }), json);
  it('is an unanchored search', () => {
    expect(P('b', '"abc"')).toEqual({ ok: 'abc' });
  });
  it('\\d is Unicode-aware, as in Rust', () => {
    expect(P('^\\d+$', '"١٢٣"')).toEqual({ ok: '١٢٣' });
    expect(P('^[\\d-]+$', '"١-2"')).toEqual({ ok: '١-2' });
    expect(P('^\\+[1-9]$', '"+1"')).toEqual({ ok: '+1' });
  });
  it('refuses, when compiled, what the two engines read differently', () => {
    for (const p of [
      '^\\w+$',
      '\\bé',
      '^a.b$',
      '(?i)^abc$',
      '^(?P<x>a)\\z',
      '(?m)^b$',
      '[[:alpha:]]',
      '[a&&b]',
    ])
      expect(() => P(p, '"x"'), p).toThrow(/unsupported pattern/);
  });
});
