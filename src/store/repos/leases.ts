import { and, eq } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** A table with the lease columns (src/store/schema/columns.ts) and an attempt count. */
interface Leased {
  id: AnyPgColumn;
  leasedBy: AnyPgColumn;
  attempts: AnyPgColumn;
}

/**
 * The row is still this worker's lease of this attempt: once a lease ran out and another worker
 * claimed the row again, the first worker's result matches nothing and is not recorded twice.
 */
export const stillLeased = (table: Leased, id: string, worker: string, attempt: number) =>
  and(eq(table.id, id), eq(table.leasedBy, worker), eq(table.attempts, attempt));

/** What ends a lease. */
export const released = { leaseUntil: null, leasedBy: null } as const;
