import Type, { type TProperties, type TSchema } from 'typebox';

/**
 * The parts of what the admin lists and shows answer, for /admin/openapi.json; each
 * capability's schema.ts declares its answers with them. The views in domain/admin/views.ts
 * and orgs-keys.ts build these objects; test/http/admin-lists checks real answers against
 * these schemas, so the document cannot drift.
 */
export const time = Type.String({ format: 'date-time' });
export const maybe = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const open = Type.Record(Type.String(), Type.Unknown());

/** `{items, next_cursor}` of one item schema. */
export const pageOfItems = (item: TSchema) =>
  Type.Object({
    items: Type.Array(item),
    next_cursor: maybe(
      Type.String({ description: 'Pass back as ?cursor= for the next page; null on the last' }),
    ),
  });

export const obj = <P extends TProperties>(p: P, description?: string) =>
  Type.Object(p, description ? { description } : {});
export const count = Type.Integer({ minimum: 0 });

/** `{items}` of one item schema, for lists read newest first up to `limit` with no cursor. */
export const itemsOf = (item: TSchema) => obj({ items: Type.Array(item) });
