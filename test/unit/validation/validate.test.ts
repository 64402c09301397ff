import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { dumpsPy } from '../../../src/http/pydantic/pyjson.js';
import { type ValidateOptions, validate } from '../../../src/http/pydantic/validate.js';
import { parse, run } from './helpers.js';

const Item = Type.Object(
  { name: Type.String({ minLength: 1 }), price: Type.Number() },
  { additionalProperties: false },
);

describe('golden bytes (doc §1)', () => {
  it('missing field echoes the whole body, floats in Python repr', () => {
    expect(run(Item, '{"price":1.0}')).toBe(
      '{"detail":[{"type":"missing","loc":["body","name"],"msg":"Field required","input":{"price":1.0}}]}',
    );
  });
  it('extra_forbidden', () => {
    expect(run(Item, '{"name":"a","price":1,"zzz":123}')).toBe(
      '{"detail":[{"type":"extra_forbidden","loc":["body","zzz"],"msg":"Extra inputs are not permitted","input":123}]}',
    );
  });
  it('string_too_short with ctx', () => {
    expect(run(Item, '{"name":"","price":1}')).toBe(
      '{"detail":[{"type":"string_too_short","loc":["body","name"],"msg":"String should have at least 1 character","input":"","ctx":{"min_length":1}}]}',
    );
  });
});

describe('whole body (doc §4): non-dict input is model_attributes_type at ["body"]', () => {
  const mat = (input: string) =>
    `{"detail":[{"type":"model_attributes_type","loc":["body"],"msg":"Input should be a valid dictionary or object to extract fields from","input":${input}}]}`;
  it.each(['[1,2]', '"abc"', '42', 'true', '1.5'])('%s', (text) => {
    expect(run(Item, text)).toBe(mat(text));
  });
  it('raw text bodies are echoed as a string', () => {
    const r = validate(Item, '{"name": "Foo", "price": 50.5}', ['body']);
    expect(!r.ok && dumpsPy({ detail: r.errors })).toBe(
      mat('"{\\"name\\": \\"Foo\\", \\"price\\": 50.5}"'),
    );
  });
  it('{} gives one missing per required field, input {}', () => {
    expect(run(Item, '{}')).toBe(
      '{"detail":[{"type":"missing","loc":["body","name"],"msg":"Field required","input":{}},{"type":"missing","loc":["body","price"],"msg":"Field required","input":{}}]}',
    );
  });
});

describe('error order (doc §6)', () => {
  it('declared fields in schema order, then extras in input order', () => {
    const M = Type.Object({ a: Type.String(), b: Type.Integer() }, { additionalProperties: false });
    expect(run(M, '{"z":1,"b":"x","y":2}')).toBe(
      '{"detail":[' +
        '{"type":"missing","loc":["body","a"],"msg":"Field required","input":{"z":1,"b":"x","y":2}},' +
        '{"type":"int_parsing","loc":["body","b"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"x"},' +
        '{"type":"extra_forbidden","loc":["body","z"],"msg":"Extra inputs are not permitted","input":1},' +
        '{"type":"extra_forbidden","loc":["body","y"],"msg":"Extra inputs are not permitted","input":2}]}',
    );
  });

  it('integer-like and __proto__ keys keep input order', () => {
    const M = Type.Object({ a: Type.Integer() }, { additionalProperties: false });
    const r = validate(M, parse('{"b":1,"10":2,"__proto__":3,"2":4,"a":"x"}'), ['body']);
    expect(!r.ok && r.errors.map((e) => e.loc)).toEqual([
      ['body', 'a'],
      ['body', 'b'],
      ['body', '10'],
      ['body', '__proto__'],
      ['body', '2'],
    ]);
    expect(run(M, '{"2":1,"a":1,"1":[1.0]}')).toMatch(
      /^\{"detail":\[\{"type":"extra_forbidden","loc":\["body","2"\].*"loc":\["body","1"\],"msg":"Extra inputs are not permitted","input":\[1\.0\]\}\]\}$/,
    );
  });

  it('nested errors, list indices as ints, dict keys as strings', () => {
    const M = Type.Object(
      {
        items: Type.Array(Type.Object({ name: Type.String(), age: Type.Integer() })),
        tags: Type.Record(Type.String(), Type.Integer()),
      },
      { additionalProperties: false },
    );
    const r = validate(M, parse('{"items":[{"age":"five"},{"age":6}],"tags":{"0":"x"}}'), ['body']);
    expect(!r.ok && r.errors.map((e) => [e.type, e.loc])).toEqual([
      ['missing', ['body', 'items', 0, 'name']],
      ['int_parsing', ['body', 'items', 0, 'age']],
      ['missing', ['body', 'items', 1, 'name']],
      ['int_parsing', ['body', 'tags', '0']],
    ]);
  });
});

describe('defaults, extras modes, custom checks', () => {
  it('absent fields get a copy of their default; the echoed input never does', () => {
    const M = Type.Object({
      a: Type.Integer(),
      d: Type.Optional(Type.Integer({ default: 7 })),
      tags: Type.Optional(Type.Array(Type.String(), { default: [] })),
      o: Type.Optional(Type.String()),
    });
    const r1 = validate(M, parse('{"a":"1"}'), []);
    expect(r1).toEqual({ ok: true, value: { a: 1, d: 7, tags: [] } });
    const r2 = validate(M, parse('{"a":"1"}'), []);
    expect(r1.ok && r2.ok && (r1.value as { tags: unknown }).tags).not.toBe(
      r2.ok && (r2.value as { tags: unknown }).tags,
    );
    expect(run(M, '{"d":"x"}')).toBe(
      '{"detail":[{"type":"missing","loc":["body","a"],"msg":"Field required","input":{"d":"x"}},{"type":"int_parsing","loc":["body","d"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"x"}]}',
    );
  });

  it('without additionalProperties extras are ignored (dropped); true keeps them', () => {
    expect(validate(Type.Object({ a: Type.Integer() }), parse('{"a":1,"z":2}'), [])).toEqual({
      ok: true,
      value: { a: 1 },
    });
    const allow = Type.Object({ a: Type.Integer() }, { additionalProperties: Type.Integer() });
    expect(validate(allow, parse('{"a":1,"z":"2"}'), [])).toEqual({
      ok: true,
      value: { a: 1, z: 2 },
    });
  });

  it('x-check runs after built-in constraints, as a pydantic value_error', () => {
    const e164: ValidateOptions['checks'] = {
      e164: (v) => (/^\+[1-9]\d{1,14}$/.test(v as string) ? null : 'invalid phone number'),
    };
    const M = Type.Object(
      { phone: Type.String({ minLength: 2, 'x-check': 'e164' }) },
      { additionalProperties: false },
    );
    expect(run(M, '{"phone":"12345"}', { checks: e164 })).toBe(
      '{"detail":[{"type":"value_error","loc":["body","phone"],"msg":"Value error, invalid phone number","input":"12345","ctx":{"error":{}}}]}',
    );
    expect(run(M, '{"phone":"1"}', { checks: e164 })).toMatch(/"type":"string_too_short"/);
    expect(run(M, '{"phone":"+14155550123"}', { checks: e164 })).toEqual({
      ok: { phone: '+14155550123' },
    });
    const I = Type.Object({ n: Type.Integer({ 'x-check': 'even' }) });
    const even = { even: (v: unknown) => ((v as number) % 2 ? 'must be even' : null) };
    expect(run(I, '{"n":"3"}', { checks: even })).toBe(
      '{"detail":[{"type":"value_error","loc":["body","n"],"msg":"Value error, must be even","input":"3","ctx":{"error":{}}}]}',
    );
    expect(() => validate(M, parse('{"phone":"+1"}'), [])).toThrow(/x-check 'e164'/);
  });

  it('rejects schemas it cannot reproduce faithfully', () => {
    const nested = Type.Object({ a: Type.String() });
    expect(() => validate(Type.Union([Type.String(), nested]), 'x')).toThrow(/union/);
    expect(() => validate(Type.Integer({ minimum: 0.5 }), 'x')).toThrow(/integer/);
  });
});

describe('performance', () => {
  it('validates a typical 6-field body in a few microseconds', () => {
    const S = Type.Object(
      {
        campaign: Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z0-9_-]+$' }),
        phone: Type.String({ pattern: '^\\+[1-9]\\d{1,14}$' }),
        kind: Type.Union([Type.Literal('call'), Type.Literal('sms'), Type.Literal('voicemail')]),
        duration: Type.Integer({ minimum: 0 }),
        consent: Type.Boolean(),
        note: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
      },
      { additionalProperties: false },
    );
    const v = parse(
      '{"campaign":"spring_sale","phone":"+14155550123","kind":"call","duration":42,"consent":true,"note":null}',
    );
    for (let i = 0; i < 20_000; i++) validate(S, v, ['body']);
    const n = 50_000;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) validate(S, v, ['body']);
    const us = ((performance.now() - t0) * 1000) / n;
    expect(us).toBeLessThan(10);
  });
});
