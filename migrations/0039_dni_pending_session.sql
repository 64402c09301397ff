-- A session dni_open_sessions has decided and not written yet: everything
-- dni_write_sessions needs to write it, one value per session, so a batch's
-- pending sessions are one array (src/store/sql/dni_open_sessions.sql).
-- A type, not a function, so it lives here: src/store/sql holds only what
-- CREATE OR REPLACE can apply again, and a type has no OR REPLACE.
CREATE TYPE "dni_pending_session" AS (
  "ord" integer,             -- the request's 1-based index in the batch
  "id" text,                 -- the new session's id (the request's)
  "org_id" text,
  "campaign_id" text,
  "visitor_id" text,
  "num" text,                -- the number handed out, shared, or the overflow number
  "kind" text,               -- allocated | shared | overflow
  "opened_at" timestamptz,   -- the request's time
  "expires_at" timestamptz,
  "attrs" jsonb              -- the request's attribution (utm_*, click ids, landing_url)
);--> statement-breakpoint
-- dni_write_sessions now takes that array (its file creates it again).
DROP FUNCTION IF EXISTS "dni_write_sessions"(text[], text[], timestamptz[], text[], jsonb[], text[], integer[], text[], timestamptz[], text[]);
