-- Webhook retention (src/retention/rules.ts): final deliveries found by when they became final
-- (updated_at), oldest first, without reading the pending ones. Delivery updates already change
-- indexed columns (state, next_attempt_at, lease_until), so this index costs them no HOT update.
CREATE INDEX IF NOT EXISTS "webhook_deliveries_final_idx" ON "webhook_deliveries" USING btree ("updated_at") WHERE "state" <> 'pending';
