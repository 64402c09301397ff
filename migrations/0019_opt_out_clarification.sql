-- An organization may ask once before an ambiguous text reply ("stop by the store") revokes
-- consent (the one-time clarification text FCC 24-24 allows). Off by default: such a reply revokes.
ALTER TABLE "orgs" ADD COLUMN IF NOT EXISTS "opt_out_clarification" boolean DEFAULT false NOT NULL;
