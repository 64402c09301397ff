-- Pool health (GET /admin/orgs/{org_id}/campaigns/{code}/pool) reads one
-- campaign's sessions over a window of days; without this index it scans
-- every campaign's sessions.
CREATE INDEX "dni_sessions_campaign_created_idx" ON "dni_sessions" USING btree ("campaign_id","created_at");
