import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { lease, timestamps, ts } from './columns.js';
import { ownOrg } from './index.js';

/** A receiver an organization registered (migrations/0011_webhooks.sql). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    orgId: ownOrg(),
    url: text('url').notNull(),
    /** Event types, or ['*'] for every type. */
    events: text('events').array().notNull(),
    description: text('description'),
    /** `whsec_…`: deliveries are signed with it (a symmetric key, so it is kept, not hashed). */
    secret: text('secret').notNull(),
    /** After a rotation the old secret signs too, until `previousSecretUntil`. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: ts('previous_secret_until'),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    disabledAt: ts('disabled_at'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    failingSince: ts('failing_since'),
    ...timestamps(),
  },
  (t) => [index('webhook_endpoints_org_idx').on(t.orgId)],
);

/** One event as every receiver gets it; `payload` is the body, byte for byte on each retry. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [index('webhook_events_org_idx').on(t.orgId, t.createdAt)],
);

/** The outbox: one row per (event, endpoint), leased by the delivery worker. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    orgId: text('org_id').notNull(),
    /** pending | delivered | failed */
    state: text('state').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull(),
    ...lease(),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    deliveredAt: ts('delivered_at'),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_event_endpoint_key').on(t.eventId, t.endpointId),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    // The worker's claim: due deliveries, and the leases out, per endpoint (migration 0011).
    index('webhook_deliveries_due_idx')
      .on(t.endpointId, t.nextAttemptAt)
      .where(sql`state = 'pending'`),
    index('webhook_deliveries_leased_idx')
      .on(t.endpointId, t.leaseUntil)
      .where(sql`lease_until IS NOT NULL`),
    // Retention deletes final deliveries by age (migration 0015).
    index('webhook_deliveries_final_idx').on(t.updatedAt).where(sql`state <> 'pending'`),
  ],
);

export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    orgId: text('org_id').notNull(),
    attempt: integer('attempt').notNull(),
    /** started | delivered | failed | gone */
    outcome: text('outcome').notNull(),
    statusCode: integer('status_code'),
    latencyMs: integer('latency_ms'),
    /** The first bytes of the receiver's answer. */
    responseHead: text('response_head'),
    error: text('error'),
    startedAt: ts('started_at').notNull(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('webhook_attempts_endpoint_idx').on(t.endpointId, t.startedAt),
    index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attempt),
  ],
);

export const webhookPoolAlerts = pgTable('webhook_pool_alerts', {
  campaignId: text('campaign_id').primaryKey(),
  lastAt: ts('last_at').notNull(),
});
