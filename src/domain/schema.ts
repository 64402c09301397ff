/** TypeBox helpers for the schemas the domain owns (config, touch request) and the routes' own. */
import Type, { type Static, type TLiteral, type TSchema, type TUnion } from 'typebox';

/**
 * An optional field the validator fills with `value` when it is absent, as a Pydantic field with a
 * default: the handler reads it as present (`Valid` in src/http/validate.ts).
 */
export const withDefault = <T extends TSchema>(schema: T, value: Static<T>) =>
  Type.Optional(Object.assign(schema, { default: value }));

type Literals<V extends readonly string[]> = { -readonly [K in keyof V]: TLiteral<V[K]> };

/** A union of literals from a vocabulary array (src/domain/vocabulary.ts). */
export function literals<const V extends readonly string[]>(
  values: V,
  options: Record<string, unknown> = {},
): TUnion<Literals<V>> {
  const members = values.map((v) => Type.Literal(v));
  return Type.Union(members, options) as unknown as TUnion<Literals<V>>;
}
