import { and, type Column, eq, lt, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from '../db.js';

/** A tenant table: every row names its organization. */
type OrgTable = PgTable & { orgId: Column };

/**
 * The rows of one organization's table that match `where`, in `order`, at most `limit` (one
 * more than a page: paging.ts). The organization is always the first condition.
 */
export function orgRows<T extends OrgTable>(
  ex: Executor,
  table: T,
  orgId: string,
  where: (SQL | undefined)[],
  order: SQL[],
  limit?: number,
): Promise<T['$inferSelect'][]> {
  const q = ex
    .select()
    .from(table as PgTable)
    .where(and(eq(table.orgId, orgId), ...where))
    .orderBy(...order);
  return (limit === undefined ? q : q.limit(limit)) as unknown as Promise<T['$inferSelect'][]>;
}

/** `column = value` when the filter is given; no condition when it is not. */
export const eqIfGiven = (column: Column, value: string | null | undefined) =>
  value ? eq(column, value) : undefined;

/** Past the cursor of a list read newest first: ids before `after`, when there is one. */
export const beforeCursor = (column: Column, after: string | undefined) =>
  after ? lt(column, after) : undefined;
