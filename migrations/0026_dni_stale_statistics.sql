-- DNI allocation with plans that stay index lookups when the statistics are
-- stale (issue 23), not only when there are none (0025).
--
-- The admin API analyses tracking_numbers after it adds numbers; a pool then
-- loaded or grown behind its back (a bulk import, the bench), with autovacuum
-- off or behind, leaves statistics that say one row and one page where there
-- are 100,000. Two plans went wrong on such a database:
--   * step 2 (lock the numbers of the batch's live sessions) read the whole
--     partial slot index, every pool number, and filtered it for the few it
--     wanted: `role = 'pool'` lets the planner use that index, which it
--     thought tiny (55 ms a batch, then 340 ms). Step 2 now filters on
--     `role <> 'overflow'`, which no partial index's predicate follows from,
--     so only the primary key can serve `e164 = ANY (…)`;
--   * a visitor's live session, wanted by (campaign_id, visitor_id,
--     expires_at > now) ordered by expires_at, was looked for through
--     dni_sessions_campaign_created_idx among every session of the campaign
--     on connections opened after the table grew (the two indexes on
--     campaign_id cost the same to a planner that knows nothing). The visitor
--     index now ends in expires_at, so it answers the whole condition and the
--     order, and no estimate can make another index cheaper.
-- The function's new text is in src/store/sql/dni_open_sessions.sql (applied
-- after the migrations); this migration changes the index it relies on.
-- test/http/dni-plans.test.ts reads every plan with auto_explain, actual row
-- counts included, on such a database.

CREATE INDEX "dni_sessions_visitor_live_idx" ON "dni_sessions" USING btree ("campaign_id","visitor_id","expires_at");--> statement-breakpoint
DROP INDEX "dni_sessions_visitor_idx";
