/**
 * Column groups several tables declare alike, so each is spelled once. Only columns that mean
 * the same thing wherever they stand belong here; the tables that use them still declare the
 * indexes on them (the migrations name those per table).
 */
import { bigserial, text, timestamp } from 'drizzle-orm/pg-core';

/** Every timestamp column: timestamptz, read as Date. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** `created_at` and `updated_at`, both written by the app. */
export const timestamps = () => ({
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
});

/**
 * The key of an append-only table (a trigger rejects UPDATE and DELETE): `seq` is insertion
 * order, so the latest row of anything is the one with the highest seq; `id` is the public id,
 * unique by an index of the table's own.
 */
export const sequenced = () => ({
  seq: bigserial('seq', { mode: 'number' }).primaryKey(),
  id: text('id').notNull(),
});

/**
 * A row a worker leases (src/workers/): which worker holds it, until when. A claimed row is
 * invisible to other workers until `lease_until` passes.
 */
export const lease = () => ({
  leaseUntil: ts('lease_until'),
  leasedBy: text('leased_by'),
});
