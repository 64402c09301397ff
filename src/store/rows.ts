import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { CLOSES_TRANSACTION, type Executor, OPENS_TRANSACTION, statementName, wire } from './db.js';

/** The rows of a raw statement, on the database or in a transaction (either driver's shape). */
export async function rowsOf<T>(ex: Executor, query: SQL): Promise<T[]> {
  const r = (await ex.execute(query)) as unknown as T[] | { rows: T[] };
  return Array.isArray(r) ? r : r.rows;
}

/**
 * A statement written with `$1`, `$2`… placeholders (long analytical SQL reads better so) as a
 * Drizzle query, so it runs on whatever executor the caller hands in. Dates travel as ISO text,
 * as `Store.query` sends them; an array is one parameter, as there.
 */
export function positional(text: string, params: readonly unknown[]): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(
    parts.map((part, i) => {
      if (i % 2 === 0) return sql.raw(part);
      const p = params[Number(part) - 1];
      if (p instanceof Date) return sql`${p.toISOString()}`;
      // An array is one parameter (`$1::text[]`): Drizzle would spread it into a list.
      return Array.isArray(p) ? sql`${sql.param(p)}` : sql`${p}`;
    }),
  );
}

/** The row a lookup by key found (or an update of one row changed), or null. */
export async function first<T>(rows: PromiseLike<T[]>): Promise<T | null> {
  return (await rows)[0] ?? null;
}

/** The row an insert or update of one row gave back with `returning()`. */
export async function returned<T>(rows: PromiseLike<T[]>): Promise<T> {
  return (await rows)[0] as T;
}

/**
 * The node-postgres client of a transaction on PostgreSQL (Drizzle's transaction session's), or
 * null: PGlite, or the database handle.
 */
function pgClientOf(ex: Executor): pg.Client | null {
  const client = (ex as { session?: { client?: unknown } }).session?.client;
  return client instanceof pg.Client ? client : null;
}

/**
 * A statement of a hot path (a carrier webhook's), written with `$1`, `$2`… placeholders. In a
 * transaction on PostgreSQL it goes as a named prepared statement on that transaction's
 * connection, so the server parses and plans it once per connection instead of once per call;
 * anywhere else (PGlite, the database handle) it runs as `positional` does. The connection is
 * Drizzle's transaction session's client: when that is not a node-postgres client, the
 * statement simply runs unnamed.
 */
export async function hotRows<T>(
  ex: Executor,
  text: string,
  params: readonly unknown[],
): Promise<T[]> {
  const client = pgClientOf(ex);
  if (client) {
    const result = await client.query({ name: statementName(text), text, values: wire(params) });
    return result.rows as T[];
  }
  return rowsOf<T>(ex, positional(text, params));
}

/**
 * A statement sent as plain text (openingRowSets, closingRows): `$1`, `$2`… and the values
 * they stand for, written into it as literals.
 */
export interface InlinedStatement {
  text: string;
  params: readonly (string | readonly string[])[];
}

/**
 * A transaction's opening statements (a carrier webhook's lock of its calls, and for a voice
 * webhook what recording them reads): on PostgreSQL they travel with the transaction's `begin`
 * in one round trip (DeferredBeginClient, db.ts), as plain text with their values written as
 * literals (strings and arrays of strings only, escaped as the driver does; a statement casts
 * them); anywhere else each runs as hotRows does, in order. The rows of each statement, in
 * order.
 */
export async function openingRowSets(
  ex: Executor,
  statements: readonly InlinedStatement[],
): Promise<unknown[][]> {
  const client = pgClientOf(ex);
  if (!client) {
    const sets: unknown[][] = [];
    for (const { text, params } of statements) sets.push(await hotRows(ex, text, params));
    return sets;
  }
  const text = statements.map(inlined).join(';');
  const result = (await client.query({ text, [OPENS_TRANSACTION]: true } as pg.QueryConfig)) as
    | pg.QueryResult
    | pg.QueryResult[];
  return (Array.isArray(result) ? result : [result]).map((r) => r.rows);
}

/** openingRowSets of one statement: its rows. */
export async function openingRows<T>(
  ex: Executor,
  text: string,
  params: InlinedStatement['params'],
): Promise<T[]> {
  return (await openingRowSets(ex, [{ text, params }]))[0] as T[];
}

/**
 * A string as an SQL literal, exactly as node-postgres's escapeLiteral writes it (quotes
 * doubled; with a backslash, an E'' literal with backslashes doubled), in two passes over the
 * string instead of one concatenation a character: a batch's offers are kilobytes of JSON.
 */
export function literal(v: string): string {
  const quoted = v.replaceAll("'", "''");
  return v.includes('\\') ? ` E'${quoted.replaceAll('\\', '\\\\')}'` : `'${quoted}'`;
}

/** A statement as plain text, its values written as literals (`literal`). */
function inlined({ text, params }: InlinedStatement): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const v = params[Number(n) - 1];
    if (typeof v === 'string') return literal(v);
    if (Array.isArray(v)) return `ARRAY[${v.map(literal).join(',')}]`;
    throw new Error(`inlined statement: no value for $${n}`);
  });
}

/**
 * A transaction's closing statement: on PostgreSQL it travels with the transaction's `commit`
 * in one round trip (DeferredBeginClient, db.ts), as openingRowSets sends its statements. Once
 * it returns, the transaction is committed: nothing may follow it but the transaction's end.
 * Anywhere else it runs as hotRows does, and the transaction commits after it as usual.
 */
export async function closingRows<T>(
  ex: Executor,
  text: string,
  params: InlinedStatement['params'],
): Promise<T[]> {
  const client = pgClientOf(ex);
  if (!client) return hotRows<T>(ex, text, params);
  const statement = inlined({ text, params });
  const result = await client.query({
    text: statement,
    [CLOSES_TRANSACTION]: true,
  } as pg.QueryConfig);
  return result.rows as T[];
}
