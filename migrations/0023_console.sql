-- The web console's people, sessions and one-time links (issue 21, contract §9).
--
-- Users sign in with an email and a scrypt password hash (docs/console.md).
-- An operator sees every organization; anyone else sees the organizations of
-- their memberships, as manager or viewer. Sessions live here, not in a
-- signed cookie, so logout and "log out everywhere" end them at once; the
-- cookie carries a random token whose SHA-256 is the row's id. Invitation
-- and password-reset links work the same way: only their hash is stored.

CREATE TABLE "console_users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"operator" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "console_users_email_key" ON "console_users" ("email");--> statement-breakpoint
CREATE TABLE "console_memberships" (
	"user_id" text NOT NULL REFERENCES "console_users"("id"),
	"org_id" text NOT NULL REFERENCES "orgs"("id"),
	"role" text NOT NULL CHECK ("role" IN ('manager', 'viewer')),
	"created_at" timestamp with time zone NOT NULL,
	PRIMARY KEY ("user_id", "org_id")
);--> statement-breakpoint
CREATE INDEX "console_memberships_org_idx" ON "console_memberships" ("org_id");--> statement-breakpoint
CREATE TABLE "console_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL REFERENCES "console_users"("id"),
	"csrf_token" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "console_sessions_user_idx" ON "console_sessions" ("user_id");--> statement-breakpoint
CREATE TABLE "console_links" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL CHECK ("kind" IN ('invitation', 'reset')),
	"email" text NOT NULL,
	"org_id" text REFERENCES "orgs"("id"),
	"role" text NOT NULL CHECK ("role" IN ('operator', 'manager', 'viewer')),
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);--> statement-breakpoint
CREATE INDEX "console_links_org_idx" ON "console_links" ("org_id", "created_at");
