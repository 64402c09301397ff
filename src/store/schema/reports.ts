import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { sequenced, ts } from './columns.js';
import { campaignScope, ownCampaign } from './index.js';

/**
 * Buyer reports (contract §4), one row per accepted report. Append-only (a
 * trigger rejects UPDATE and DELETE): a buyer's return is a new row, and the
 * call's current disposition is its latest row, mirrored on `calls`.
 */
export const buyerReportEvents = pgTable(
  'buyer_report_events',
  {
    /** The latest event of a call is the one with the highest seq. */
    ...sequenced(),
    ...campaignScope(),
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
