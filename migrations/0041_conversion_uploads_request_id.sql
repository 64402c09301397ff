-- A Data Manager API upload Google accepted answers only a request id; Google processes the
-- events afterwards and reports the outcome through requestStatus:retrieve. The row stays
-- pending with that id until the worker's check says sent or failed (docs/conversions.md,
-- "Confirmation"). `solo`: Google reported a request in part, without naming its events, so
-- each of them is sent again in a request of its own to learn its own outcome.
ALTER TABLE conversion_uploads ADD COLUMN request_id text;--> statement-breakpoint
ALTER TABLE conversion_uploads ADD COLUMN solo boolean NOT NULL DEFAULT false;
