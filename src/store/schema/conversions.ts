import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { lease, timestamps, ts } from './columns.js';
import { ownOrg } from './index.js';

/** An ad platform an organization sends conversions to (migrations/0024_conversion_uploads.sql). */
export const conversionDestinations = pgTable(
  'conversion_destinations',
  {
    id: text('id').primaryKey(),
    orgId: ownOrg(),
    platform: text('platform').notNull(),
    name: text('name').notNull(),
    /** Campaign codes; null: every campaign. */
    campaigns: text('campaigns').array(),
    trigger: jsonb('trigger').notNull(),
    value: jsonb('value'),
    settings: jsonb('settings').notNull(),
    /** Sealed with SECRETS_KEY (src/domain/conversions/secrets.ts); never answered. */
    secrets: text('secrets').notNull(),
    secretsMask: jsonb('secrets_mask').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    ...timestamps(),
  },
  (t) => [index('conversion_destinations_org_idx').on(t.orgId)],
);

/** The outbox: one row per (destination, call, kind), leased by the upload worker. */
export const conversionUploads = pgTable(
  'conversion_uploads',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id').notNull(),
    destinationId: text('destination_id')
      .notNull()
      .references(() => conversionDestinations.id, { onDelete: 'cascade' }),
    callId: text('call_id').notNull(),
    /** conversion | retraction */
    kind: text('kind').notNull(),
    eventId: text('event_id').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    /** pending | sent | failed | retracted | not_retractable */
    status: text('status').notNull(),
    facts: jsonb('facts').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    ...lease(),
    reason: text('reason'),
    reasonCode: text('reason_code'),
    rejectedAt: ts('rejected_at'),
    /** An attempt may have reached the platform unanswered (migration 0038): it may hold it. */
    maybeApplied: boolean('maybe_applied').notNull().default(false),
    /**
     * The Data Manager request that carried it, while Google has not reported its processing
     * (migration 0041): the row is pending and the worker checks the request instead of sending.
     */
    requestId: text('request_id'),
    /** When Google accepted that request (migration 0043): its report is awaited for a time. */
    awaitingSince: ts('awaiting_since'),
    /** How many attempts were checks of a request (migration 0043), not sends. */
    checks: integer('checks').notNull().default(0),
    /** Sent again in a request of its own (Google reported its request only in part). */
    solo: boolean('solo').notNull().default(false),
    sentAt: ts('sent_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('conversion_uploads_dest_call_kind_key').on(t.destinationId, t.callId, t.kind),
    // What the worker's claim reads (migration 0024).
    index('conversion_uploads_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('conversion_uploads_dest_idx').on(t.destinationId, t.createdAt),
  ],
);

export const conversionUploadAttempts = pgTable(
  'conversion_upload_attempts',
  {
    id: text('id').primaryKey(),
    uploadId: text('upload_id')
      .notNull()
      .references(() => conversionUploads.id, { onDelete: 'cascade' }),
    orgId: text('org_id').notNull(),
    destinationId: text('destination_id').notNull(),
    attempt: integer('attempt').notNull(),
    /** sent | retry | failed */
    outcome: text('outcome').notNull(),
    statusCode: integer('status_code'),
    reason: text('reason'),
    startedAt: ts('started_at').notNull(),
    finishedAt: ts('finished_at').notNull(),
  },
  (t) => [index('conversion_upload_attempts_upload_idx').on(t.uploadId, t.attempt)],
);
