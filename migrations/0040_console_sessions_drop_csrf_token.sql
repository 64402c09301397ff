-- The console's CSRF tokens come from @fastify/csrf-protection's own cookie
-- (docs/console.md, "CSRF"): the per-session token was written at sign-in and
-- never read.
ALTER TABLE "console_sessions" DROP COLUMN "csrf_token";
