CREATE TABLE "carrier_attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"touch_id" text NOT NULL,
	"org_id" text NOT NULL,
	"attempt" integer NOT NULL,
	"carrier" text NOT NULL,
	"worker" text NOT NULL,
	"outcome" text NOT NULL,
	"carrier_id" text,
	"error" text,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "consent_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"org_id" text NOT NULL,
	"e164" text NOT NULL,
	"kind" text NOT NULL,
	"tier" text,
	"ebr_basis" text,
	"source" text,
	"captured_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone,
	"evidence" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reason" text,
	"fingerprint" text NOT NULL,
	"actor" text NOT NULL,
	"request_id" text,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dispatch_jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"touch_id" text NOT NULL,
	"org_id" text NOT NULL,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"leased_by" text,
	"last_error" text,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbound_idempotency" (
	"org_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"state" text NOT NULL,
	"owner" text NOT NULL,
	"status_code" integer,
	"response" text,
	"touch_id" text,
	"started_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "outbound_idempotency_org_id_campaign_id_key_pk" PRIMARY KEY("org_id","campaign_id","key")
);
--> statement-breakpoint
CREATE TABLE "outbound_touches" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"to_e164" text NOT NULL,
	"channel" text NOT NULL,
	"status" text NOT NULL,
	"placed" boolean NOT NULL,
	"consent_basis" text NOT NULL,
	"variant" text,
	"cadence_step" integer,
	"scenario_ref" text,
	"template_id" text,
	"dynamic_variables" jsonb,
	"lead_timezone" text,
	"idempotency_key" text,
	"reasons" jsonb NOT NULL,
	"checks" jsonb NOT NULL,
	"next_allowed_at" timestamp with time zone,
	"decided_at" timestamp with time zone NOT NULL,
	"actor" text NOT NULL,
	"request_id" text,
	"dispatch_status" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"carrier" text,
	"carrier_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"last_error" text,
	"finalized_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "simulated_carrier_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"touch_id" text NOT NULL,
	"channel" text NOT NULL,
	"to_e164" text NOT NULL,
	"from_e164" text,
	"body" text,
	"requests" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_request_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "consent_events" ADD CONSTRAINT "consent_events_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatch_jobs" ADD CONSTRAINT "dispatch_jobs_touch_id_outbound_touches_id_fk" FOREIGN KEY ("touch_id") REFERENCES "public"."outbound_touches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "carrier_attempts_job_idx" ON "carrier_attempts" USING btree ("job_id","attempt");--> statement-breakpoint
CREATE INDEX "carrier_attempts_touch_idx" ON "carrier_attempts" USING btree ("touch_id");--> statement-breakpoint
CREATE UNIQUE INDEX "consent_events_id_key" ON "consent_events" USING btree ("id");--> statement-breakpoint
CREATE INDEX "consent_events_contact_idx" ON "consent_events" USING btree ("org_id","e164","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "consent_events_fingerprint_key" ON "consent_events" USING btree ("org_id","fingerprint");--> statement-breakpoint
CREATE UNIQUE INDEX "dispatch_jobs_touch_key" ON "dispatch_jobs" USING btree ("touch_id");--> statement-breakpoint
CREATE INDEX "dispatch_jobs_due_idx" ON "dispatch_jobs" USING btree ("run_at") WHERE "dispatch_jobs"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "outbound_idempotency_expiry_idx" ON "outbound_idempotency" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "outbound_touches_placed_idx" ON "outbound_touches" USING btree ("org_id","to_e164","decided_at") WHERE "outbound_touches"."placed";--> statement-breakpoint
CREATE INDEX "outbound_touches_campaign_idx" ON "outbound_touches" USING btree ("org_id","campaign_id","decided_at");--> statement-breakpoint
CREATE UNIQUE INDEX "simulated_carrier_messages_key" ON "simulated_carrier_messages" USING btree ("idempotency_key");