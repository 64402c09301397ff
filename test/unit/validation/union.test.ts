import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { field, run } from './helpers.js';

// Expected values follow pydantic-core's smart union (validators/union.rs): a strict pass that
// prefers an exact type, then a lax pass in order; failures name each member in `loc`.
const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

describe('smart union of scalar types', () => {
  it('keeps the exact type instead of the first lax match', () => {
    expect(field(Scalar, '"abc"')).toEqual({ ok: 'abc' });
    expect(field(Scalar, '"1"')).toEqual({ ok: '1' });
    expect(field(Scalar, 'true')).toEqual({ ok: true });
    expect(field(Scalar, '1.5')).toEqual({ ok: 1.5 });
    expect(field(Scalar, '5')).toEqual({ ok: 5 });
    expect(field(Type.Union([Type.Integer(), Type.String()]), '"12"')).toEqual({ ok: '12' });
    expect(field(Type.Union([Type.Boolean(), Type.Integer()]), '1')).toEqual({ ok: 1 });
  });

  it('falls back to the first member that accepts the value in lax mode', () => {
    expect(field(Type.Union([Type.Integer(), Type.String()]), '2.0')).toEqual({ ok: 2 });
    expect(field(Type.Union([Type.Boolean(), Type.Integer()]), '"yes"')).toEqual({ ok: true });
  });

  it('reports every member, tagged with its pydantic name, when none accepts the value', () => {
    expect(run(Type.Object({ f: Scalar }), '{"f":[1]}')).toBe(
      '{"detail":[' +
        '{"type":"string_type","loc":["body","f","str"],"msg":"Input should be a valid string","input":[1]},' +
        '{"type":"float_type","loc":["body","f","float"],"msg":"Input should be a valid number","input":[1]},' +
        '{"type":"bool_type","loc":["body","f","bool"],"msg":"Input should be a valid boolean","input":[1]}]}',
    );
  });

  it('names constrained members constrained-<type>', () => {
    const U = Type.Object({
      f: Type.Union([Type.String({ maxLength: 2 }), Type.Integer({ minimum: 0 })]),
    });
    expect(run(U, '{"f":"abc"}')).toBe(
      '{"detail":[' +
        '{"type":"string_too_long","loc":["body","f","constrained-str"],"msg":"String should have at most 2 characters","input":"abc","ctx":{"max_length":2}},' +
        '{"type":"int_parsing","loc":["body","f","constrained-int"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"abc"}]}',
    );
  });

  it('accepts null only when the union is nullable, then adds no member tag for it', () => {
    const D = Type.Object({
      d: Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Null()])),
    });
    expect(run(D, '{"d":{"a":null,"b":"x","c":2}}')).toEqual({
      ok: { d: { a: null, b: 'x', c: 2 } },
    });
    expect(run(D, '{"d":{"a":{}}}')).toBe(
      '{"detail":[' +
        '{"type":"string_type","loc":["body","d","a","str"],"msg":"Input should be a valid string","input":{}},' +
        '{"type":"float_type","loc":["body","d","a","float"],"msg":"Input should be a valid number","input":{}}]}',
    );
    expect(run(Type.Object({ f: Scalar }), '{"f":null}')).toMatch(/"loc":\["body","f","str"\]/);
  });
});
