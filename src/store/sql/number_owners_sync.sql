-- number_owners (migration 0030) follows tracking_numbers: a number added is
-- its organization's, a number removed is no one's. Statement triggers with
-- transition tables: one insert or one delete however many numbers a
-- statement adds or removes. A number another organization owns is refused
-- by tracking_numbers' key first, and by number_owners' key under a
-- distributed PostgreSQL, where the numbers' key holds the organization
-- (both are the 409 number_in_use).
CREATE OR REPLACE FUNCTION number_owners_sync() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO number_owners (e164, org_id) SELECT a.e164, a.org_id FROM added a;
  ELSE
    DELETE FROM number_owners o USING removed r WHERE o.e164 = r.e164;
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER number_owners_added AFTER INSERT ON "tracking_numbers"
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION number_owners_sync();
CREATE OR REPLACE TRIGGER number_owners_removed AFTER DELETE ON "tracking_numbers"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION number_owners_sync();
