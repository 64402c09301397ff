import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../src/store/db.js';
import { closingRows, openingRowSets, openingRows, rowsOf } from '../../src/store/rows.js';
import { openTestStore, storeKind, type TestStore } from '../helpers/store.js';

/**
 * A transaction's opening statement (openingRows) travels with its `begin` on PostgreSQL
 * (DeferredBeginClient, src/store/db.ts): it must still run inside the transaction, and the
 * transaction must still end as it would have. On PGlite openingRows is hotRows, and these
 * cases hold as well.
 */
let store: TestStore;
beforeAll(async () => {
  store = await openTestStore();
});
afterAll(() => store.close());

/** A setting local to the transaction: it lives only inside a transaction block. */
const local = (tx: Tx) =>
  rowsOf<{ v: string | null }>(tx, sql`select current_setting('opening.test', true) as v`);

describe(`a transaction opened by its first statement (${storeKind})`, () => {
  it('runs that statement inside the transaction, with the statements after it', async () => {
    const seen = await store.db.transaction(async (tx) => {
      const [opened] = await openingRows<{ v: string }>(
        tx,
        "select set_config('opening.test', $1, true) as v",
        ["it's here"],
      );
      const [later] = await local(tx);
      return { opened: opened?.v, later: later?.v };
    });
    // Outside a transaction block a local setting ends with its statement: `later` would be ''.
    expect(seen).toEqual({ opened: "it's here", later: "it's here" });
  });

  it('rolls back what the opening statement did when the transaction fails', async () => {
    const [{ n: before } = { n: 0 }] = await rowsOf<{ n: number }>(
      store.db,
      sql`select count(*)::int as n from orgs`,
    );
    await expect(
      store.db.transaction(async (tx) => {
        await openingRows(
          tx,
          'insert into orgs (id, name, tracking_enabled) values ($1, $2, true) returning id',
          ['org_opening_rolled_back', 'Rolled back'],
        );
        throw new Error('after the opening');
      }),
    ).rejects.toThrow('after the opening');
    const [{ n: after } = { n: -1 }] = await rowsOf<{ n: number }>(
      store.db,
      sql`select count(*)::int as n from orgs`,
    );
    expect(after).toBe(before);
  });

  it('fails with the statement, and the connection serves the next transaction', async () => {
    const failed = await store.db
      .transaction((tx) => openingRows(tx, 'select 1 / ($1::int - 1) as x', ['1']))
      .then(
        () => null,
        (e: Error) => e,
      );
    // PGlite's driver wraps the database's error (Drizzle's "Failed query", the cause inside).
    expect(`${failed?.message} ${(failed?.cause as Error | undefined)?.message}`).toMatch(
      /division by zero/,
    );
    const [row] = await store.db.transaction(async (tx) => {
      await openingRows(tx, 'select $1::text as v', ['again']);
      return local(tx);
    });
    // The failed one was rolled back: nothing of it is left on the connection.
    expect(row?.v ?? '').toBe('');
  });

  it('writes its literals escaped: a quote or a backslash is data, not SQL', async () => {
    const hostile = ["o'brien\\'; drop table orgs; --", 'two\\\\', "'"];
    const rows = await store.db.transaction((tx) =>
      openingRows<{ v: string[] }>(tx, 'select $1::text[] as v', [hostile]),
    );
    expect(rows[0]?.v).toEqual(hostile);
  });

  it('sends several opening statements together: each runs in the transaction, in order', async () => {
    const seen = await store.db.transaction(async (tx) => {
      const sets = await openingRowSets(tx, [
        { text: "select set_config('opening.test', $1, true) as v", params: ['first'] },
        // Sees what the statement before it did, in the same transaction.
        { text: "select current_setting('opening.test') || $1 as v", params: [', second'] },
        { text: 'select unnest($1::text[]) as v', params: [['a', 'b']] },
      ]);
      const [later] = await local(tx);
      return { sets, later: later?.v };
    });
    expect(seen).toEqual({
      sets: [[{ v: 'first' }], [{ v: 'first, second' }], [{ v: 'a' }, { v: 'b' }]],
      later: 'first',
    });
  });

  it('rolls back the statements before the one that failed, and sends none after it', async () => {
    const [{ n: before } = { n: 0 }] = await rowsOf<{ n: number }>(
      store.db,
      sql`select count(*)::int as n from orgs`,
    );
    const failed = await store.db
      .transaction((tx) =>
        openingRowSets(tx, [
          {
            text: 'insert into orgs (id, name, tracking_enabled) values ($1, $2, true) returning id',
            params: ['org_opening_set_rolled_back', 'Rolled back'],
          },
          { text: 'select 1 / ($1::int - 1) as x', params: ['1'] },
          {
            text: 'insert into orgs (id, name, tracking_enabled) values ($1, $2, true) returning id',
            params: ['org_opening_set_never', 'Never'],
          },
        ]),
      )
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(`${failed?.message} ${(failed?.cause as Error | undefined)?.message}`).toMatch(
      /division by zero/,
    );
    const [{ n: after } = { n: -1 }] = await rowsOf<{ n: number }>(
      store.db,
      sql`select count(*)::int as n from orgs`,
    );
    expect(after).toBe(before);
  });
});

const orgCount = async (id: string) => {
  const [row] = await rowsOf<{ n: number }>(
    store.db,
    sql`select count(*)::int as n from orgs where id = ${id}`,
  );
  return row?.n ?? -1;
};
const insertOrg =
  'insert into orgs (id, name, tracking_enabled) values ($1, $2, true) returning id';
const pg = storeKind === 'postgres';

/**
 * A transaction's closing statement (closingRows) travels with its `commit` on PostgreSQL: once
 * it returns the transaction is committed, and nothing but the transaction's end may follow.
 * On PGlite it is hotRows, and the transaction commits after it as usual.
 */
describe(`a transaction closed by its last statement (${storeKind})`, () => {
  it('commits with that statement, and its rows are what it returned', async () => {
    const seenInside = await store.db.transaction(async (tx) => {
      await openingRows(tx, 'select $1::text as v', ['opened']);
      const rows = await closingRows<{ id: string }>(tx, insertOrg, ['org_closing_1', 'Closed']);
      expect(rows).toEqual([{ id: 'org_closing_1' }]);
      // Another connection sees it before the transaction's own end: committed with it. (PGlite
      // runs one statement at a time, so only PostgreSQL can ask from outside.)
      return pg ? orgCount('org_closing_1') : null;
    });
    if (pg) expect(seenInside).toBe(1);
    expect(await orgCount('org_closing_1')).toBe(1);
  });

  it('opens and closes a transaction of one statement', async () => {
    const rows = await store.db.transaction((tx) =>
      closingRows<{ id: string }>(tx, insertOrg, ['org_closing_alone', "O'Alone"]),
    );
    expect(rows).toEqual([{ id: 'org_closing_alone' }]);
    expect(await orgCount('org_closing_alone')).toBe(1);
  });

  it('rolls back the whole transaction when the closing statement fails', async () => {
    const failed = await store.db
      .transaction(async (tx) => {
        await openingRows(tx, insertOrg, ['org_closing_before', 'Before']);
        await closingRows(tx, 'select 1 / ($1::int - 1) as x', ['1']);
      })
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(`${failed?.message} ${(failed?.cause as Error | undefined)?.message}`).toMatch(
      /division by zero/,
    );
    expect(await orgCount('org_closing_before')).toBe(0);
    // The connection serves the next transaction.
    const [row] = await store.db.transaction(async (tx) => {
      await openingRows(tx, 'select $1::text as v', ['again']);
      return local(tx);
    });
    expect(row?.v ?? '').toBe('');
  });

  // PostgreSQL only: on PGlite closingRows is hotRows, the commit comes after it as usual, and a
  // statement after it runs in the transaction as it should.
  it.skipIf(!pg)(
    'fails a statement sent after it, rather than run it outside the transaction',
    async () => {
      const failed = await store.db
        .transaction(async (tx) => {
          await closingRows(tx, insertOrg, ['org_closing_then', 'Then']);
          await rowsOf(
            tx,
            sql`insert into orgs (id, name, tracking_enabled)
                                values ('org_closing_after', 'After', true)`,
          );
        })
        .then(
          () => null,
          (e: Error) => e,
        );
      expect(`${failed?.message} ${(failed?.cause as Error | undefined)?.message}`).toMatch(
        /after its transaction was committed/,
      );
      // What the closing statement did is committed; what came after it never ran.
      expect(await orgCount('org_closing_then')).toBe(1);
      expect(await orgCount('org_closing_after')).toBe(0);
    },
  );
});
