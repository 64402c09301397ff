-- Buyers in the traffic report (contract §11 "Reports", docs/reporting.md):
-- a new key, the buyer who answered the call ('' for none), kept in grain 3
-- of the cells (grains 0 and 1, and the local days, sum over it), and three
-- counters: calls answered by a buyer, billable calls, and revenue in cents
-- (the payouts of billable calls whose latest buyer report is not `rejected`;
-- payouts are numeric(12,2), so a cent count is exact).
ALTER TABLE "report_traffic_rollups" ADD COLUMN "buyer_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_rollups" ADD COLUMN "calls_answered_by_buyer" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_rollups" ADD COLUMN "calls_billable" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_rollups" ADD COLUMN "revenue_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_rollups" DROP CONSTRAINT "report_traffic_rollups_pkey";--> statement-breakpoint
ALTER TABLE "report_traffic_rollups" ADD PRIMARY KEY ("org_id", "grain", "bucket", "campaign_id", "source", "medium", "utm_campaign", "landing_path", "attribution", "tracking_number", "buyer_id");--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ADD COLUMN "buyer_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ADD COLUMN "calls_answered_by_buyer" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ADD COLUMN "calls_billable" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ADD COLUMN "revenue_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_days" ADD COLUMN "calls_answered_by_buyer" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_days" ADD COLUMN "calls_billable" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_days" ADD COLUMN "revenue_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "report_calls" ADD COLUMN "buyer_id" text DEFAULT '' NOT NULL;
