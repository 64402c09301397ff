/** TypeBox helpers for the schemas the domain owns (config, touch request) and the routes' own. */
import Type, { type Static, type TSchema } from 'typebox';

/**
 * An optional field the validator fills with `value` when it is absent, as a Pydantic field with a
 * default: the handler reads it as present (`Valid` in src/http/validate.ts).
 */
export const withDefault = <T extends TSchema>(schema: T, value: Static<T>) =>
  Type.Optional(Object.assign(schema, { default: value }));
