CREATE TABLE "buyer_report_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"org_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"call_id" text NOT NULL,
	"report_id" text NOT NULL,
	"disposition" text NOT NULL,
	"notes" text,
	"key_id" text NOT NULL,
	"request_id" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "buyer_report_events_disposition_check" CHECK ("buyer_report_events"."disposition" in ('success', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "carrier" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "carrier_call_sid" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "status" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "duration_seconds" integer;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "disposition" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "disposition_event_id" text;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "disposition_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "buyer_report_events_id_key" ON "buyer_report_events" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "buyer_report_events_report_key" ON "buyer_report_events" USING btree ("org_id","campaign_id","report_id");--> statement-breakpoint
CREATE INDEX "buyer_report_events_call_idx" ON "buyer_report_events" USING btree ("call_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "calls_carrier_call_sid_key" ON "calls" USING btree ("carrier_call_sid");