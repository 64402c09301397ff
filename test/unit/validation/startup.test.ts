import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { compileValidator, UnsupportedSchema } from '../../../src/http/pydantic/index.js';
import { validateRequest } from '../../../src/http/validate.js';

describe('a schema the validator cannot reproduce fails when compiled, naming the place', () => {
  it('an unsupported keyword, under the root $id', () => {
    const Body = Type.Object(
      { at: Type.Optional(Type.String({ format: 'date-time' })) },
      { $id: 'StartupBody' },
    );
    expect(() => compileValidator(Body)).toThrow(UnsupportedSchema);
    expect(() => compileValidator(Body)).toThrow(
      "unsupported keyword 'format' at StartupBody#/properties/at",
    );
  });

  it('deep inside items and unions', () => {
    const Body = Type.Object({
      list: Type.Array(Type.Union([Type.Integer({ multipleOf: 2 }), Type.Null()])),
    });
    expect(() => compileValidator(Body)).toThrow(
      "unsupported keyword 'multipleOf' at #/properties/list/items/anyOf/0",
    );
  });

  it('an x-check with no implementation', () => {
    const Body = Type.Object({ n: Type.String({ 'x-check': 'nope' }) }, { $id: 'NoCheck' });
    expect(() => compileValidator(Body, { checks: {} })).toThrow(
      "no implementation for x-check 'nope' in NoCheck",
    );
  });

  it('when the route is registered, not at its first request', () => {
    const Query = Type.Object({ q: Type.String({ pattern: '^\\w+$' }) });
    expect(() => validateRequest({ query: Query })).toThrow(
      /unsupported pattern '\^\\w\+\$'.* at #\/properties\/q/,
    );
  });
});
