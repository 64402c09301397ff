-- Suppression lists per organization (compliance-rules.md Part B §1.5, §4.3): the internal
-- do-not-call list, the national registry, state lists and a litigator list. One row per
-- (organization, number, list); `number` is the E.164 digits without '+' as bigint (8 bytes
-- instead of a 13-byte text), since the national registry alone is hundreds of millions of rows
-- across tenants. The primary key leads with (org_id, number), so the touch path reads every list
-- for a contact in one index range scan. No foreign key to orgs: it would cost an index probe per
-- row of a 10-million-number import; the admin routes check the organization first.
CREATE TABLE "suppression_entries" (
	"org_id" text NOT NULL,
	"number" bigint NOT NULL,
	"list" text NOT NULL CHECK ("list" IN ('internal', 'national', 'state', 'litigator')),
	-- State lists: the USPS code of the state whose list holds the number.
	"state" text,
	"source" text NOT NULL,
	"listed_on" date NOT NULL,
	"added_at" timestamptz NOT NULL,
	-- The import that last wrote the row; a full-file import removes the rows it did not touch.
	"import_id" text,
	CONSTRAINT "suppression_entries_pk" PRIMARY KEY ("org_id", "number", "list")
);
--> statement-breakpoint
-- Every import, so the freshness rule can ask for the newest national list date in one probe.
CREATE TABLE "suppression_imports" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL REFERENCES "orgs"("id"),
	"list" text NOT NULL,
	"mode" text NOT NULL,
	"source" text NOT NULL,
	"listed_on" date NOT NULL,
	"rows" integer NOT NULL,
	"added" integer NOT NULL,
	"removed" integer NOT NULL,
	"rejected" integer NOT NULL,
	"started_at" timestamptz NOT NULL,
	"finished_at" timestamptz NOT NULL,
	"actor" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "suppression_imports_latest" ON "suppression_imports" ("org_id", "list", "listed_on" DESC);
--> statement-breakpoint
-- Per-organization suppression settings; absent row: the defaults (litigator rule on).
CREATE TABLE "suppression_settings" (
	"org_id" text PRIMARY KEY NOT NULL REFERENCES "orgs"("id"),
	"litigator_blocks" boolean NOT NULL DEFAULT true,
	"updated_at" timestamptz NOT NULL
);
--> statement-breakpoint
-- Reassigned Numbers Database answers, cached per (number, consent date): the registry's answer
-- for a date does not depend on who asks, so one query serves every organization.
CREATE TABLE "rnd_results" (
	"e164" text NOT NULL,
	"consent_date" date NOT NULL,
	-- reassigned | not_reassigned | no_data
	"result" text NOT NULL CHECK ("result" IN ('reassigned', 'not_reassigned', 'no_data')),
	"checker" text NOT NULL,
	"checked_at" timestamptz NOT NULL,
	CONSTRAINT "rnd_results_pk" PRIMARY KEY ("e164", "consent_date")
);
--> statement-breakpoint
CREATE INDEX "rnd_results_checked_at" ON "rnd_results" ("checked_at");
