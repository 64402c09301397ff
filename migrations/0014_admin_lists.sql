-- The admin lists page newest first by id within an organization (src/store/repos/admin-*.ts):
-- without these, a page of one organization's calls or touches reads every row of the table.
CREATE INDEX IF NOT EXISTS "calls_org_id_idx" ON "calls" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "outbound_touches_org_id_idx" ON "outbound_touches" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "consent_events_org_seq_idx" ON "consent_events" USING btree ("org_id","seq");
