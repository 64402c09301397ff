import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { field, run } from './helpers.js';

// Expected values follow pydantic-core's smart union (validators/union.rs) for the one such union
// the schemas use, `str | float | bool`: failures name each member in `loc`.
const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

describe('smart union of scalar types', () => {
  it('keeps the exact type: each JSON kind has its one member', () => {
    expect(field(Scalar, '"abc"')).toEqual({ ok: 'abc' });
    expect(field(Scalar, '"1"')).toEqual({ ok: '1' });
    expect(field(Scalar, 'true')).toEqual({ ok: true });
    expect(field(Scalar, '1.5')).toEqual({ ok: 1.5 });
    expect(field(Scalar, '5')).toEqual({ ok: 5 });
  });

  it('reports every member, tagged with its pydantic name, when none accepts the value', () => {
    expect(run(Type.Object({ f: Scalar }), '{"f":[1]}')).toBe(
      '{"detail":[' +
        '{"type":"string_type","loc":["body","f","str"],"msg":"Input should be a valid string","input":[1]},' +
        '{"type":"float_type","loc":["body","f","float"],"msg":"Input should be a valid number","input":[1]},' +
        '{"type":"bool_type","loc":["body","f","bool"],"msg":"Input should be a valid boolean","input":[1]}]}',
    );
  });

  it('refuses, when compiled, any other union of non-literal types', () => {
    for (const u of [
      Type.Union([Type.Integer(), Type.String()]),
      Type.Union([Type.String({ maxLength: 2 }), Type.Number(), Type.Boolean()]),
      Type.Union([Type.String(), Type.Number()]),
    ])
      expect(() => run(Type.Object({ f: u }), '{"f":1}')).toThrow(
        /unsupported union.* at #\/properties\/f/,
      );
  });

  it('accepts null only when the union is nullable, then adds no member tag for it', () => {
    const D = Type.Object({
      d: Type.Record(
        Type.String(),
        Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
      ),
    });
    expect(run(D, '{"d":{"a":null,"b":"x","c":2}}')).toEqual({
      ok: { d: { a: null, b: 'x', c: 2 } },
    });
    expect(run(D, '{"d":{"a":{}}}')).toBe(
      '{"detail":[' +
        '{"type":"string_type","loc":["body","d","a","str"],"msg":"Input should be a valid string","input":{}},' +
        '{"type":"float_type","loc":["body","d","a","float"],"msg":"Input should be a valid number","input":{}},' +
        '{"type":"bool_type","loc":["body","d","a","bool"],"msg":"Input should be a valid boolean","input":{}}]}',
    );
    expect(run(Type.Object({ f: Scalar }), '{"f":null}')).toMatch(/"loc":\["body","f","str"\]/);
  });
});
