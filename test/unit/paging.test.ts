import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationFailed } from '../../src/errors.js';
import { decodeCursor, encodeCursor, ID_SHAPE, pageOf } from '../../src/http/paging.js';

describe('pageOf', () => {
  it('gives a cursor only when a row past the page was read', () => {
    expect(pageOf([1, 2, 3], 2, String)).toEqual({ items: [1, 2], nextCursor: '2' });
    expect(pageOf([1, 2], 2, String)).toEqual({ items: [1, 2], nextCursor: null });
    expect(pageOf([], 2, String)).toEqual({ items: [], nextCursor: null });
  });

  it('walking pages over a sorted key set yields every key exactly once', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 10_000 })),
        fc.integer({ min: 1, max: 7 }),
        (keys, limit) => {
          const sorted = [...keys].sort((a, b) => b - a);
          const seen: number[] = [];
          let after: number | undefined;
          for (;;) {
            const rows = sorted.filter((k) => after === undefined || k < after).slice(0, limit + 1);
            const { items, nextCursor } = pageOf(rows, limit, (k) => encodeCursor(String(k)));
            seen.push(...items);
            if (nextCursor === null) break;
            after = Number(decodeCursor(nextCursor, /^\d+$/));
          }
          expect(seen).toEqual(sorted);
        },
      ),
    );
  });
});

describe('decodeCursor', () => {
  it('reads back what encodeCursor wrote', () => {
    const id = 'call_019cafb518588192ca2da1f0c2364bb3';
    expect(decodeCursor(encodeCursor(id), ID_SHAPE)).toBe(id);
    expect(decodeCursor(undefined, ID_SHAPE)).toBeUndefined();
  });

  it.each([
    ['not base64url', '!!'],
    ['a key of another shape', encodeCursor('nonsense')],
    ['padding or a second spelling', `${encodeCursor('org_019cafb518588192ca2da1f0')}=`],
    ['empty', ''],
  ])('rejects %s with a 422 on query.cursor', (_why, cursor) => {
    try {
      decodeCursor(cursor, ID_SHAPE);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationFailed);
      expect((err as ValidationFailed).errors[0]?.loc).toEqual(['query', 'cursor']);
    }
  });
});
