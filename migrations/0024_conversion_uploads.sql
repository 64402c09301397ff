-- Conversion uploads (docs/conversions.md): destinations per organization (ad platform,
-- settings, secrets encrypted with SECRETS_KEY), one upload row per (destination, call,
-- kind) written in the buyer report's transaction as the outbox the upload worker leases
-- from, and every attempt it made.
CREATE TABLE "conversion_destinations" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL REFERENCES "orgs"("id"),
	"platform" text NOT NULL,
	"name" text NOT NULL,
	"campaigns" text[],
	"trigger" jsonb NOT NULL,
	"value" jsonb,
	"settings" jsonb NOT NULL,
	"secrets" text NOT NULL,
	"secrets_mask" jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "conversion_destinations_org_idx" ON "conversion_destinations" USING btree ("org_id");
--> statement-breakpoint
CREATE TABLE "conversion_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"destination_id" text NOT NULL REFERENCES "conversion_destinations"("id") ON DELETE CASCADE,
	"call_id" text NOT NULL,
	"kind" text NOT NULL,
	"event_id" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"status" text NOT NULL,
	"facts" jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"leased_by" text,
	"reason" text,
	"reason_code" text,
	"rejected_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "conversion_uploads_dest_call_kind_key" ON "conversion_uploads" USING btree ("destination_id","call_id","kind");
--> statement-breakpoint
CREATE INDEX "conversion_uploads_due_idx" ON "conversion_uploads" USING btree ("next_attempt_at") WHERE status = 'pending';
--> statement-breakpoint
CREATE INDEX "conversion_uploads_dest_idx" ON "conversion_uploads" USING btree ("destination_id","created_at");
--> statement-breakpoint
CREATE TABLE "conversion_upload_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"upload_id" text NOT NULL REFERENCES "conversion_uploads"("id") ON DELETE CASCADE,
	"org_id" text NOT NULL,
	"destination_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"outcome" text NOT NULL,
	"status_code" integer,
	"reason" text,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "conversion_upload_attempts_upload_idx" ON "conversion_upload_attempts" USING btree ("upload_id","attempt");
