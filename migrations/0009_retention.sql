-- Retention (src/retention/): bounded tables without slowing the hot path.
-- Sessions a recorded call points at are kept; finding them per deleted
-- session needs this index (calls without a session are not indexed).
CREATE INDEX "calls_dni_session_idx" ON "calls" USING btree ("dni_session_id") WHERE "dni_session_id" IS NOT NULL;
--> statement-breakpoint
-- Finished dispatch jobs, found by age without touching the pending ones' index.
CREATE INDEX "dispatch_jobs_finished_idx" ON "dispatch_jobs" USING btree ("updated_at") WHERE "state" <> 'pending';
--> statement-breakpoint
-- One process at a time runs the job: whoever holds the unexpired lease.
CREATE TABLE "retention_leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Where each rule's scan of the time-ordered ids stopped, so rows a rule keeps
-- (sessions calls point at) are not scanned again every round.
CREATE TABLE "retention_cursors" (
	"rule" text PRIMARY KEY NOT NULL,
	"after" text NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
