-- Pool health (src/store/repos/pool-health.ts) over a 30-day window of a busy
-- campaign (issue 21: 670,000 sessions in the window on the reporting bench)
-- read every session's heap row for its number, kind, expiry and hits: a third
-- of the table's pages, several seconds. The campaign index now carries those
-- columns, so the window is one index-only range scan. It replaces
-- dni_sessions_campaign_created_idx (same key, wider entries): a new session
-- still writes the same number of index entries.
--
-- A session created before the window still counts while it is held into the
-- window. The statement reads one day before the window through the index
-- above; sessions held longer than a day (a visitor who kept renewing) are
-- few and have their own partial index, so no scan of the campaign's older
-- sessions is needed. The predicate must stay the statement's text exactly.
-- It carries its columns too: the planner cannot estimate the predicate (it
-- guesses a third of the rows), and an index-only read of a tiny index is what
-- makes it cheaper than the campaign's older sessions through the index above.
CREATE INDEX "dni_sessions_window_idx" ON "dni_sessions" USING btree ("campaign_id","created_at") INCLUDE ("tracking_number","expires_at","kind","hits");--> statement-breakpoint
DROP INDEX "dni_sessions_campaign_created_idx";--> statement-breakpoint
CREATE INDEX "dni_sessions_long_idx" ON "dni_sessions" USING btree ("campaign_id","expires_at") INCLUDE ("created_at","tracking_number","kind") WHERE "expires_at" - "created_at" > interval '1 day';
