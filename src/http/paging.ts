import { errors } from '../errors.js';

/**
 * Keyset paging for every admin list (and the audit log): a page is asked for
 * with one row more than it shows, so the extra row says whether another page
 * exists without a count, and the next page starts strictly after the last row
 * shown, so rows written meanwhile never shift a page or repeat a row.
 */
export function pageOf<T>(
  rows: T[],
  limit: number,
  cursorOf: (last: T) => string,
): { items: T[]; nextCursor: string | null } {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? cursorOf(last) : null };
}

/** Opaque to callers: the key of the last row shown, so nothing depends on its form. */
export const encodeCursor = (key: string): string => Buffer.from(key, 'utf8').toString('base64url');

/**
 * The key inside a cursor this service gave, or a 422 on `query.cursor` when
 * it is not one (`shape` is the form every key of that list has).
 */
export function decodeCursor(cursor: string | undefined, shape: RegExp): string | undefined {
  if (cursor === undefined) return undefined;
  const key = /^[A-Za-z0-9_-]+$/.test(cursor)
    ? Buffer.from(cursor, 'base64url').toString('utf8')
    : '';
  if (!shape.test(key) || encodeCursor(key) !== cursor) {
    throw errors.field(['query', 'cursor'], 'not a cursor this list gave', cursor);
  }
  return key;
}

/** Every id this service makes: a prefix, then hex (src/domain/ids.ts). */
export const ID_SHAPE = /^[a-z]{2,4}_[0-9a-f]{12,40}$/;
