import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import { decodeCursor, encodeCursor, ID_SHAPE, pageOf } from '../../../http/paging.js';
import type { RequestSchemas, Valid } from '../../../http/validate.js';
import { adminRoute, type DocParts } from './openapi.js';

/** How a list's cursor carries the key of its last row shown. */
export interface Cursor {
  /** The key inside a cursor, or a 422 on `query.cursor` when it is not one this list gave. */
  decode(cursor: string | undefined): string | undefined;
  encode(key: string): string;
}

/** The opaque cursor of the admin lists: the key, base64url, of the form `shape` (paging.ts). */
export const opaqueCursor = (shape: RegExp): Cursor => ({
  decode: (cursor) => decodeCursor(cursor, shape),
  encode: encodeCursor,
});

/** A list whose query schema already checks the cursor's form: the key as it is (the audit log). */
export const plainCursor: Cursor = { decode: (cursor) => cursor, encode: (key) => key };

/** The query every admin list takes: a page size (defaulted) and the cursor of the page before. */
interface PageQuery {
  query: { limit: number; cursor?: string | undefined };
}

/** What a list's reader gets: the validated request, the key to start after, how many rows to read. */
export type PageRequest<S extends RequestSchemas, O = unknown> = Valid<S> & {
  /** What `owner` answered (undefined without one). */
  owner: O;
  /** The key in the cursor (undefined on the first page). */
  after: string | undefined;
  /** The page size plus one: the extra row says whether another page exists. */
  take: number;
};

/** One admin list route: its document, how to read a page of rows, and each row's view. */
export interface ListSpec<S extends RequestSchemas, R, O = undefined> {
  /** The request schemas and doc parts; `answer` is one item's schema (the page is `{items, next_cursor}`). */
  doc: S & Omit<DocParts, 'list'>;
  /** The cursor's form; ids (`opaqueCursor(ID_SHAPE)`) unless said otherwise. */
  cursor?: Cursor;
  /** Runs before the cursor is read: a 404 for the list's owner (a webhook, a destination). */
  owner?: (input: Valid<S>, req: FastifyRequest) => Promise<O>;
  /** Up to `take` rows from the query port, in the list's order, starting after `after`. */
  rows: (page: PageRequest<S, O>) => Promise<R[]>;
  /** The key of a row, which the next page's cursor carries. */
  keyOf: (row: R) => string;
  /** The row as the answer shows it. */
  view: (row: R, input: Valid<S>) => unknown;
}

const ids = opaqueCursor(ID_SHAPE);

/**
 * Registers GET `url` on `scope` as a keyset-paged admin list (paging.ts): validates the
 * request, reads one row more than the page from the query port, and answers
 * `{items, next_cursor}` with each row's view.
 */
export function listRoute<S extends RequestSchemas & { query: TSchema }, R, O = undefined>(
  scope: FastifyInstance,
  url: string,
  tag: string,
  summary: string,
  spec: ListSpec<S, R, O>,
): void {
  const route = adminRoute<S>(tag, summary, { ...spec.doc, list: true });
  const cursor = spec.cursor ?? ids;
  scope.get(url, route.options, async (req) => {
    const input = route.read(req) as Valid<S> & PageQuery;
    const owner = (spec.owner ? await spec.owner(input, req) : undefined) as O;
    const after = cursor.decode(input.query.cursor);
    const limit = input.query.limit;
    const rows = await spec.rows({ ...input, owner, after, take: limit + 1 });
    const { items, nextCursor } = pageOf(rows, limit, (r) => cursor.encode(spec.keyOf(r)));
    return { items: items.map((r) => spec.view(r, input)), next_cursor: nextCursor };
  });
}
