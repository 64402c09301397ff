-- Local-day rollups and the callers' previous calls (issue 20: reports at ten
-- million sessions within 200 ms; docs/reporting.md, "Read model").
--
-- A 30-day report by day read about 90,000 quarter-hour cells and summed 21
-- counters over each (400 ms), and counted distinct callers by hashing every
-- call of the range. Two additions:
--
--   * report_traffic_days and report_touch_days: the cells of grains 0 and 1
--     (no tracking number) summed per local day in the organization's zone,
--     named in report_day_zones. The fold (report_compact) adds each delta to
--     both the quarter hours and the days, in one statement; when the
--     organization's zone changes, the next fold builds the days again from
--     the quarter hours (report_days_rebuild). A report by day, week or month
--     in that zone reads the days; any other reads the quarter hours, exact
--     either way.
--   * report_calls.prev_*: the start of the same caller's previous call in the
--     organization, and within the same campaign, source, and both. A caller is
--     counted once in a bucket by the call whose previous one (with the same
--     keys) started before the bucket, so a bucket's unique callers are its
--     calls less its repeats (calls whose previous call started in the same
--     bucket), read through a partial index on each column: only the repeats
--     are read, not every call of the range.

-- A delta leaves the counters it does not move null: a DNI batch's row carries
-- five session counters, and sixteen zero call counters were 128 bytes of every
-- row it wrote (and of its WAL). Readers sum them (null-skipping); the fold
-- writes coalesce(sum, 0).
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "sessions" DROP DEFAULT, ALTER COLUMN "sessions" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "sessions_shared" DROP DEFAULT, ALTER COLUMN "sessions_shared" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "sessions_overflow" DROP DEFAULT, ALTER COLUMN "sessions_overflow" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "sessions_ambiguous" DROP DEFAULT, ALTER COLUMN "sessions_ambiguous" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "session_renewals" DROP DEFAULT, ALTER COLUMN "session_renewals" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "calls" DROP DEFAULT, ALTER COLUMN "calls" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "calls_with_session" DROP DEFAULT, ALTER COLUMN "calls_with_session" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "calls_on_shared_number" DROP DEFAULT, ALTER COLUMN "calls_on_shared_number" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "calls_first_time" DROP DEFAULT, ALTER COLUMN "calls_first_time" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "calls_answered" DROP DEFAULT, ALTER COLUMN "calls_answered" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "calls_missed" DROP DEFAULT, ALTER COLUMN "calls_missed" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "calls_under_30s" DROP DEFAULT, ALTER COLUMN "calls_under_30s" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "calls_30s_to_2m" DROP DEFAULT, ALTER COLUMN "calls_30s_to_2m" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "calls_2m_to_10m" DROP DEFAULT, ALTER COLUMN "calls_2m_to_10m" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "calls_over_10m" DROP DEFAULT, ALTER COLUMN "calls_over_10m" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "buyer_reports" DROP DEFAULT, ALTER COLUMN "buyer_reports" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "buyer_corrections" DROP DEFAULT, ALTER COLUMN "buyer_corrections" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "buyer_success" DROP DEFAULT, ALTER COLUMN "buyer_success" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "buyer_rejected" DROP DEFAULT, ALTER COLUMN "buyer_rejected" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "buyer_reported_calls" DROP DEFAULT, ALTER COLUMN "buyer_reported_calls" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "report_traffic_deltas" ALTER COLUMN "buyer_report_seconds_sum" DROP DEFAULT, ALTER COLUMN "buyer_report_seconds_sum" DROP NOT NULL;--> statement-breakpoint

CREATE TABLE "report_traffic_days" (
  "grain" smallint NOT NULL,
  "org_id" text NOT NULL,
  "day" date NOT NULL,
  "campaign_id" text NOT NULL,
  "source" text NOT NULL,
  "medium" text DEFAULT '' NOT NULL,
  "utm_campaign" text DEFAULT '' NOT NULL,
  "landing_path" text DEFAULT '' NOT NULL,
  "attribution" text DEFAULT '' NOT NULL,
  "sessions" bigint DEFAULT 0 NOT NULL,
  "sessions_shared" bigint DEFAULT 0 NOT NULL,
  "sessions_overflow" bigint DEFAULT 0 NOT NULL,
  "sessions_ambiguous" bigint DEFAULT 0 NOT NULL,
  "session_renewals" bigint DEFAULT 0 NOT NULL,
  "calls" bigint DEFAULT 0 NOT NULL,
  "calls_with_session" bigint DEFAULT 0 NOT NULL,
  "calls_on_shared_number" bigint DEFAULT 0 NOT NULL,
  "calls_first_time" bigint DEFAULT 0 NOT NULL,
  "calls_answered" bigint DEFAULT 0 NOT NULL,
  "calls_missed" bigint DEFAULT 0 NOT NULL,
  "calls_under_30s" bigint DEFAULT 0 NOT NULL,
  "calls_30s_to_2m" bigint DEFAULT 0 NOT NULL,
  "calls_2m_to_10m" bigint DEFAULT 0 NOT NULL,
  "calls_over_10m" bigint DEFAULT 0 NOT NULL,
  "buyer_reports" bigint DEFAULT 0 NOT NULL,
  "buyer_corrections" bigint DEFAULT 0 NOT NULL,
  "buyer_success" bigint DEFAULT 0 NOT NULL,
  "buyer_rejected" bigint DEFAULT 0 NOT NULL,
  "buyer_reported_calls" bigint DEFAULT 0 NOT NULL,
  "buyer_report_seconds_sum" bigint DEFAULT 0 NOT NULL,
  PRIMARY KEY ("org_id", "grain", "day", "campaign_id", "source", "medium", "utm_campaign", "landing_path", "attribution")
);--> statement-breakpoint
CREATE TABLE "report_touch_days" (
  "org_id" text NOT NULL,
  "day" date NOT NULL,
  "campaign_id" text NOT NULL,
  "channel" text NOT NULL,
  "purpose" text NOT NULL,
  "outcome" text NOT NULL,
  "state" text NOT NULL,
  "reason" text NOT NULL,
  "touches" bigint DEFAULT 0 NOT NULL,
  "placed" bigint DEFAULT 0 NOT NULL,
  "blocked" bigint DEFAULT 0 NOT NULL,
  "delivered" bigint DEFAULT 0 NOT NULL,
  "failed" bigint DEFAULT 0 NOT NULL,
  PRIMARY KEY ("org_id", "day", "campaign_id", "channel", "purpose", "outcome", "state", "reason")
);--> statement-breakpoint
-- The zone an organization's days are kept in (none yet: its reports read the quarter hours).
CREATE TABLE "report_day_zones" (
  "org_id" text PRIMARY KEY NOT NULL,
  "time_zone" text NOT NULL
);--> statement-breakpoint

ALTER TABLE "report_calls" ADD COLUMN "prev_org" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_calls" ADD COLUMN "prev_campaign" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_calls" ADD COLUMN "prev_source" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_calls" ADD COLUMN "prev_campaign_source" timestamp with time zone;--> statement-breakpoint
UPDATE "report_calls" r SET
  "prev_org" = p.prev_org, "prev_campaign" = p.prev_campaign,
  "prev_source" = p.prev_source, "prev_campaign_source" = p.prev_campaign_source
FROM (SELECT call_id,
        lag(started_at) OVER (PARTITION BY org_id, caller ORDER BY started_at, call_id) AS prev_org,
        lag(started_at) OVER (PARTITION BY org_id, caller, campaign_id ORDER BY started_at, call_id) AS prev_campaign,
        lag(started_at) OVER (PARTITION BY org_id, caller, source ORDER BY started_at, call_id) AS prev_source,
        lag(started_at) OVER (PARTITION BY org_id, caller, campaign_id, source ORDER BY started_at, call_id) AS prev_campaign_source
      FROM "report_calls") p
WHERE p.call_id = r.call_id;--> statement-breakpoint
DROP INDEX "report_calls_org_started_idx";--> statement-breakpoint
-- The calls of a range (drill-downs, unique callers by other keys).
CREATE INDEX "report_calls_org_started_idx" ON "report_calls" ("org_id", "started_at") INCLUDE ("campaign_id", "source", "caller");--> statement-breakpoint
-- Repeats, by the start of their previous call: a bucket's unique callers are its calls
-- less the calls whose previous call (same keys) started in the bucket, read here alone.
CREATE INDEX "report_calls_prev_org_idx" ON "report_calls" ("org_id", "prev_org") INCLUDE ("started_at", "campaign_id", "source") WHERE "prev_org" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "report_calls_prev_campaign_idx" ON "report_calls" ("org_id", "prev_campaign") INCLUDE ("started_at", "campaign_id", "source") WHERE "prev_campaign" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "report_calls_prev_source_idx" ON "report_calls" ("org_id", "prev_source") INCLUDE ("started_at", "campaign_id", "source") WHERE "prev_source" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "report_calls_prev_campaign_source_idx" ON "report_calls" ("org_id", "prev_campaign_source") INCLUDE ("started_at", "campaign_id", "source") WHERE "prev_campaign_source" IS NOT NULL;--> statement-breakpoint
-- A caller's calls in order: the previous call of a new one, and the next of one recorded late.
CREATE INDEX "report_calls_org_caller_idx" ON "report_calls" ("org_id", "caller", "started_at", "call_id") INCLUDE ("campaign_id", "source");
