-- The allocation queries order by (held_until | last_assigned_at) NULLS FIRST, e164:
-- with e164 in the index, LIMIT 1 reads one entry instead of sorting the whole pool.
DROP INDEX "tracking_numbers_free_idx";--> statement-breakpoint
DROP INDEX "tracking_numbers_lra_idx";--> statement-breakpoint
CREATE INDEX "tracking_numbers_free_idx" ON "tracking_numbers" USING btree ("campaign_id","role","held_until" NULLS FIRST,"e164");--> statement-breakpoint
CREATE INDEX "tracking_numbers_lra_idx" ON "tracking_numbers" USING btree ("campaign_id","role","last_assigned_at" NULLS FIRST,"e164");