import { and, eq } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';

/** The columns of an outbox row a worker leases (dispatch jobs, webhook deliveries). */
interface Leased {
  id: AnyPgColumn;
  leasedBy: AnyPgColumn;
  attempts: AnyPgColumn;
}

/**
 * The fence of a record: the row is still this worker's claim of this attempt. Another worker
 * that claimed it since (this one overran its lease) took the lease and counted an attempt.
 */
export function stillLeased(t: Leased, id: string, worker: string, attempt: number) {
  return and(eq(t.id, id), eq(t.leasedBy, worker), eq(t.attempts, attempt));
}

/** The lease given back when an attempt is recorded. */
export const RELEASED = { leaseUntil: null, leasedBy: null } as const;
