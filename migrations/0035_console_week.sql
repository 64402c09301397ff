-- The country a number typed without its country code is read in (the
-- console's number fields: "212-555-0312" is +12125550312 in the US).
ALTER TABLE "orgs" ADD COLUMN "phone_country" text DEFAULT 'US' NOT NULL;--> statement-breakpoint
-- Calls lists are ordered by when the call started (not when it was
-- recorded: a backdated or late carrier event comes in its place), paged by
-- (started_at, id).
CREATE INDEX "calls_org_started_idx" ON "calls" USING btree ("org_id","started_at","id");
