import { sql } from 'drizzle-orm';
import { bigserial, check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ownCampaign, ts } from './index.js';

/**
 * Buyer reports (contract §4), one row per accepted report. Append-only (a
 * trigger rejects UPDATE and DELETE): a buyer's return is a new row, and the
 * call's current disposition is its latest row, mirrored on `calls`.
 */
export const buyerReportEvents = pgTable(
  'buyer_report_events',
  {
    /** Insertion order: the latest event of a call is the one with the highest seq. */
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    id: text('id').notNull(),
    orgId: text('org_id').notNull(),
    campaignId: text('campaign_id').notNull(),
    callId: text('call_id').notNull(),
    /** The buyer's own id for the report, unique per organization and campaign. */
    reportId: text('report_id').notNull(),
    disposition: text('disposition').notNull(),
    notes: text('notes'),
    /** The API key that posted the report. */
    keyId: text('key_id').notNull(),
    requestId: text('request_id'),
    at: ts('at').notNull(),
  },
  (t) => [
    uniqueIndex('buyer_report_events_id_key').on(t.id),
    uniqueIndex('buyer_report_events_report_key').on(t.orgId, t.campaignId, t.reportId),
    index('buyer_report_events_call_idx').on(t.callId, t.seq),
    ownCampaign('buyer_report_events_campaign_fk', t),
    check(
      'buyer_report_events_disposition_check',
      sql`${t.disposition} in ('success', 'rejected')`,
    ),
  ],
);
