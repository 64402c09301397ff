-- Google may take up to 24 hours to report a Data Manager request it accepted, so the worker
-- checks it for a time (docs/conversions.md, "Confirmation") measured from `awaiting_since`,
-- when Google accepted the request the row awaits, not for a number of attempts. `checks`
-- counts the attempts that were checks, so the send budget (attempts − checks) is not spent
-- by waiting. Rows awaiting a report now start their window at their last change.
ALTER TABLE conversion_uploads ADD COLUMN awaiting_since timestamptz;--> statement-breakpoint
ALTER TABLE conversion_uploads ADD COLUMN checks integer NOT NULL DEFAULT 0;--> statement-breakpoint
UPDATE conversion_uploads SET awaiting_since = updated_at WHERE request_id IS NOT NULL;
