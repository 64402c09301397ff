-- Whose number is this (docs/scaling.md, "Past one PostgreSQL node", item 2).
-- An inbound call or text arrives with the number alone, and a number belongs
-- to one organization. tracking_numbers answered both by its key, the number;
-- a table sharded by organization cannot keep that key (Citus wants the
-- distribution column in every unique key). number_owners answers "whose
-- number is this" and keeps a number with one organization: one row per
-- number and no tenant data, a table Citus can copy to every node (a
-- reference table, hence no foreign key to orgs, which is distributed).
-- The trigger number_owners_sync (src/store/sql) keeps it in step with
-- tracking_numbers in the statement that adds or removes numbers; the inbound
-- paths find the organization here, then its number by organization and number.
CREATE TABLE "number_owners" (
  "e164" text PRIMARY KEY NOT NULL,
  "org_id" text NOT NULL
);--> statement-breakpoint
INSERT INTO "number_owners" ("e164", "org_id") SELECT "e164", "org_id" FROM "tracking_numbers";
