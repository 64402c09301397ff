-- An upload whose request may have reached the platform without an answer coming back (the
-- connection dropped, the deadline passed, a 5xx, an answer cut off): the platform may hold
-- the conversion whatever its status here says, so a `rejected` report retracts it even when
-- it reads failed (docs/conversions.md, "Upload states").
ALTER TABLE conversion_uploads ADD COLUMN maybe_applied boolean NOT NULL DEFAULT false;
