CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_prefix" text NOT NULL,
	"scopes" text[] NOT NULL,
	"label" text,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"rotated_to" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"org_id" text,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"subject_type" text NOT NULL,
	"subject_id" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"request_id" text,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calls" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"dni_session_id" text,
	"tracking_number" text NOT NULL,
	"from_number" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"attribution" text NOT NULL,
	"ambiguous" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"forward_to" text,
	"session_ttl_seconds" integer DEFAULT 1800 NOT NULL,
	"report_window_days" integer DEFAULT 30 NOT NULL,
	"config" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dni_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"visitor_id" text NOT NULL,
	"tracking_number" text NOT NULL,
	"kind" text NOT NULL,
	"ambiguous" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"hits" integer DEFAULT 1 NOT NULL,
	"gclid" text,
	"fbc" text,
	"fbp" text,
	"landing_url" text,
	"fbclid" text,
	"msclkid" text,
	"gbraid" text,
	"wbraid" text,
	"utm_source" text,
	"utm_medium" text,
	"utm_campaign" text,
	"utm_term" text,
	"utm_content" text
);
--> statement-breakpoint
CREATE TABLE "orgs" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"tracking_enabled" boolean DEFAULT false NOT NULL,
	"dni_rate_limit_per_minute" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracking_numbers" (
	"e164" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"role" text DEFAULT 'pool' NOT NULL,
	"held_by" text,
	"held_until" timestamp with time zone,
	"last_assigned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking_numbers" ADD CONSTRAINT "tracking_numbers_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking_numbers" ADD CONSTRAINT "tracking_numbers_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_key_hash_key" ON "api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "api_keys_org_idx" ON "api_keys" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "api_keys_updated_idx" ON "api_keys" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "audit_log_org_idx" ON "audit_log" USING btree ("org_id","seq");--> statement-breakpoint
CREATE INDEX "calls_org_campaign_idx" ON "calls" USING btree ("org_id","campaign_id","started_at");--> statement-breakpoint
CREATE INDEX "calls_caller_idx" ON "calls" USING btree ("campaign_id","from_number","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_org_code_key" ON "campaigns" USING btree ("org_id","code");--> statement-breakpoint
CREATE INDEX "dni_sessions_visitor_idx" ON "dni_sessions" USING btree ("campaign_id","visitor_id","expires_at");--> statement-breakpoint
CREATE INDEX "dni_sessions_number_idx" ON "dni_sessions" USING btree ("tracking_number","created_at");--> statement-breakpoint
CREATE INDEX "tracking_numbers_free_idx" ON "tracking_numbers" USING btree ("campaign_id","role","held_until" NULLS FIRST);--> statement-breakpoint
CREATE INDEX "tracking_numbers_lra_idx" ON "tracking_numbers" USING btree ("campaign_id","role","last_assigned_at" NULLS FIRST);