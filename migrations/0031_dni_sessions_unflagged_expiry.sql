-- A share flags the live sessions of the number it shares (dni_write_sessions).
-- It found them through dni_sessions_unflagged_idx by number alone, and read
-- every unflagged session the number ever had for its expiry: an allocation
-- that expires unshared stays unflagged until retention deletes it, so a
-- number handed out every half hour carries thousands of them after weeks,
-- and each share read them all (1,000 per number made a share cost 598 µs of
-- the database's CPU against 122: bench/README.md, eighth session). The index
-- now carries the expiry, so a share reads the number's live sessions only.
-- Same entries, one timestamp wider each.
DROP INDEX "dni_sessions_unflagged_idx";--> statement-breakpoint
CREATE INDEX "dni_sessions_unflagged_idx" ON "dni_sessions" USING btree ("tracking_number","expires_at") WHERE NOT "ambiguous";
