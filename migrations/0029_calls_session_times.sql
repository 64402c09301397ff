-- Pool health (src/store/repos/pool-health.ts) measured the live-call delay and
-- the grace lateness by looking up each call's session by id: over a 30-day
-- window of a busy campaign on the reporting bench (issue 21) that was 66,000
-- random reads of dni_sessions, 1.5 s of the campaign page. The call now keeps
-- its attributing session's creation and expiry as they stood when it was
-- recorded (attribution `session` or `recent_holder`; null otherwise), so the
-- statement reads the calls alone. A renewal after the call no longer moves a
-- recorded lateness: the hold that attributed the call is what it measures.
ALTER TABLE "calls" ADD COLUMN "session_created_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "calls" ADD COLUMN "session_expires_at" timestamp with time zone;--> statement-breakpoint
UPDATE "calls" c SET "session_created_at" = s."created_at", "session_expires_at" = s."expires_at"
  FROM "dni_sessions" s
 WHERE s."id" = c."dni_session_id" AND c."attribution" IN ('session', 'recent_holder');
