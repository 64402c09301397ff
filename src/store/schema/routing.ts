/**
 * Buyers and call routing (migrations/0036_buyers_routing.sql, docs/routing.md): the buyers an
 * organization sells calls to, what their caps count now, each campaign's routing plan, and
 * every offer of a call to a buyer.
 */
import {
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { timestamps, ts } from './columns.js';
import { calls, campaigns, ownOrg } from './index.js';

/** Money: two decimal places, read as the decimal string the API answers. */
export const money = (name: string) => numeric(name, { precision: 12, scale: 2 });

export const buyers = pgTable(
  'buyers',
  {
    id: text('id').primaryKey(),
    orgId: ownOrg(),
    name: text('name').notNull(),
    forwardTo: text('forward_to').notNull(),
    /** IANA name: the zone of the schedule and of the cap periods. */
    timeZone: text('time_zone').notNull(),
    /** `{mon: [["09:00","17:00"]], …}`; null: always open. */
    schedule: jsonb('schedule'),
    /** USPS codes of the callers taken; null: any caller. */
    states: text('states').array(),
    /** Null: no such cap. */
    capHourly: integer('cap_hourly'),
    capDaily: integer('cap_daily'),
    capMonthly: integer('cap_monthly'),
    capTotal: integer('cap_total'),
    capConcurrency: integer('cap_concurrency'),
    payoutAmount: money('payout_amount').notNull().default('0'),
    payoutMinDurationSeconds: integer('payout_min_duration_seconds').notNull().default(0),
    payoutDuplicateWindowDays: integer('payout_duplicate_window_days').notNull().default(0),
    /** active | paused */
    status: text('status').notNull().default('active'),
    ...timestamps(),
  },
  (t) => [
    index('buyers_org_idx').on(t.orgId, t.id),
    // The target of the (buyer, organization) foreign key of routing_targets.
    unique('buyers_id_org_key').on(t.id, t.orgId),
  ],
);

/**
 * One row per buyer: the offers its caps count now. Written only by the routing statements in
 * src/store/repos/routing.ts, which take and give back a place under the row's lock.
 */
export const buyerUsage = pgTable('buyer_usage', {
  buyerId: text('buyer_id')
    .primaryKey()
    .references(() => buyers.id, { onDelete: 'cascade' }),
  orgId: text('org_id').notNull(),
  /** Start of the buyer's calendar hour that hour_count counts (null: none counted yet). */
  hourStart: ts('hour_start'),
  hourCount: integer('hour_count').notNull().default(0),
  dayStart: ts('day_start'),
  dayCount: integer('day_count').notNull().default(0),
  monthStart: ts('month_start'),
  monthCount: integer('month_count').notNull().default(0),
  totalCount: integer('total_count').notNull().default(0),
  /** Offers not yet ended: what the concurrency cap counts. */
  liveCount: integer('live_count').notNull().default(0),
});

/** A campaign's routing plan; a campaign without one forwards to its own forward_to. */
export const campaignRouting = pgTable(
  'campaign_routing',
  {
    campaignId: text('campaign_id').primaryKey(),
    orgId: text('org_id').notNull(),
    ringTimeoutSeconds: integer('ring_timeout_seconds').notNull().default(20),
    /** forward_to (the campaign's own) | hangup */
    fallback: text('fallback').notNull().default('forward_to'),
    ...timestamps(),
  },
  (t) => [
    foreignKey({
      name: 'campaign_routing_campaign_fk',
      columns: [t.campaignId, t.orgId],
      foreignColumns: [campaigns.id, campaigns.orgId],
    }),
  ],
);

export const routingTargets = pgTable(
  'routing_targets',
  {
    campaignId: text('campaign_id')
      .notNull()
      .references(() => campaignRouting.campaignId, { onDelete: 'cascade' }),
    buyerId: text('buyer_id').notNull(),
    orgId: text('org_id').notNull(),
    /** 1 first. */
    priority: integer('priority').notNull(),
    /** 1–100: the share among targets of the same priority. */
    weight: integer('weight').notNull().default(1),
  },
  (t) => [
    primaryKey({ name: 'routing_targets_pkey', columns: [t.campaignId, t.buyerId] }),
    index('routing_targets_buyer_idx').on(t.buyerId),
    foreignKey({
      name: 'routing_targets_buyer_fk',
      columns: [t.buyerId, t.orgId],
      foreignColumns: [buyers.id, buyers.orgId],
    }),
  ],
);

/**
 * One offer of a call to a buyer. `outcome` is null while the offer is live (ringing or
 * connected); the periods are the cap periods the offer was counted in, so giving its place
 * back takes it from the right counts whatever the time or the buyer's zone is then.
 */
export const callOffers = pgTable(
  'call_offers',
  {
    id: text('id').primaryKey(),
    orgId: text('org_id').notNull(),
    callId: text('call_id')
      .notNull()
      .references(() => calls.id),
    /** 1 .. 5, in the order offered. */
    seq: integer('seq').notNull(),
    buyerId: text('buyer_id')
      .notNull()
      .references(() => buyers.id),
    offeredAt: ts('offered_at').notNull(),
    endedAt: ts('ended_at'),
    /** answered | busy | no_answer | failed | canceled; null: not ended. */
    outcome: text('outcome'),
    /** The buyer's leg, for an answered offer. */
    durationSeconds: integer('duration_seconds'),
    hourStart: ts('hour_start').notNull(),
    dayStart: ts('day_start').notNull(),
    monthStart: ts('month_start').notNull(),
  },
  (t) => [
    uniqueIndex('call_offers_call_seq_key').on(t.callId, t.seq),
    // Never the same buyer twice for one call.
    uniqueIndex('call_offers_call_buyer_key').on(t.callId, t.buyerId),
    index('call_offers_buyer_idx').on(t.buyerId, t.offeredAt),
  ],
);
