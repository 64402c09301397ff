-- Buyers and call routing (contract §11, docs/routing.md). A buyer takes an
-- organization's calls and pays for them; a campaign's routing plan lists the
-- buyers that may take its calls; each call is offered to at most five of
-- them in turn, one call_offers row per offer, and the call keeps who
-- answered, whether it is billable and its payout.
ALTER TABLE "orgs" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;
--> statement-breakpoint
CREATE TABLE "buyers" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL REFERENCES "orgs"("id"),
	"name" text NOT NULL,
	"forward_to" text NOT NULL,
	"time_zone" text NOT NULL,
	"schedule" jsonb,
	"states" text[],
	"cap_hourly" integer,
	"cap_daily" integer,
	"cap_monthly" integer,
	"cap_total" integer,
	"cap_concurrency" integer,
	"payout_amount" numeric(12, 2) DEFAULT '0' NOT NULL,
	"payout_min_duration_seconds" integer DEFAULT 0 NOT NULL,
	"payout_duplicate_window_days" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "buyers_id_org_key" UNIQUE ("id", "org_id")
);
--> statement-breakpoint
CREATE INDEX "buyers_org_idx" ON "buyers" USING btree ("org_id","id");
--> statement-breakpoint
-- What each buyer's caps count now, one row per buyer, kept by the routing
-- statements: an offer takes a place with one conditional UPDATE of this row
-- (which checks every cap under the row's lock), an offer not answered gives
-- it back. Each period holds the start of the buyer's current calendar hour,
-- day and month and the offers counted in it; a count whose start is not the
-- current period's counts zero.
CREATE TABLE "buyer_usage" (
	"buyer_id" text PRIMARY KEY NOT NULL REFERENCES "buyers"("id") ON DELETE CASCADE,
	"org_id" text NOT NULL,
	"hour_start" timestamp with time zone,
	"hour_count" integer DEFAULT 0 NOT NULL,
	"day_start" timestamp with time zone,
	"day_count" integer DEFAULT 0 NOT NULL,
	"month_start" timestamp with time zone,
	"month_count" integer DEFAULT 0 NOT NULL,
	"total_count" integer DEFAULT 0 NOT NULL,
	"live_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_routing" (
	"campaign_id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"ring_timeout_seconds" integer DEFAULT 20 NOT NULL,
	"fallback" text DEFAULT 'forward_to' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "campaign_routing_campaign_fk" FOREIGN KEY ("campaign_id","org_id") REFERENCES "campaigns"("id","org_id")
);
--> statement-breakpoint
CREATE TABLE "routing_targets" (
	"campaign_id" text NOT NULL REFERENCES "campaign_routing"("campaign_id") ON DELETE CASCADE,
	"buyer_id" text NOT NULL,
	"org_id" text NOT NULL,
	"priority" integer NOT NULL,
	"weight" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "routing_targets_pkey" PRIMARY KEY ("campaign_id","buyer_id"),
	CONSTRAINT "routing_targets_buyer_fk" FOREIGN KEY ("buyer_id","org_id") REFERENCES "buyers"("id","org_id")
);
--> statement-breakpoint
CREATE INDEX "routing_targets_buyer_idx" ON "routing_targets" USING btree ("buyer_id");
--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "buyer_id" text;
--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "billable" boolean;
--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "payout" numeric(12, 2);
--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "fallback" text;
--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "fallback_reason" text;
--> statement-breakpoint
-- The duplicate-window check: this buyer's billable calls from this caller.
CREATE INDEX "calls_buyer_caller_idx" ON "calls" USING btree ("buyer_id","from_number","started_at") WHERE billable;
--> statement-breakpoint
CREATE TABLE "call_offers" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"call_id" text NOT NULL REFERENCES "calls"("id"),
	"seq" integer NOT NULL,
	"buyer_id" text NOT NULL REFERENCES "buyers"("id"),
	"offered_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"outcome" text,
	"duration_seconds" integer,
	"hour_start" timestamp with time zone NOT NULL,
	"day_start" timestamp with time zone NOT NULL,
	"month_start" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "call_offers_call_seq_key" ON "call_offers" USING btree ("call_id","seq");
--> statement-breakpoint
-- Never the same buyer twice for one call.
CREATE UNIQUE INDEX "call_offers_call_buyer_key" ON "call_offers" USING btree ("call_id","buyer_id");
--> statement-breakpoint
CREATE INDEX "call_offers_buyer_idx" ON "call_offers" USING btree ("buyer_id","offered_at");
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "buyer_id" text REFERENCES "buyers"("id");
