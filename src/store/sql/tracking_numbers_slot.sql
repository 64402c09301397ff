-- A new pool number takes the next slot as it is inserted (set before the
-- row is written: no second version of it to clean up, which a 150,000-number
-- pool made autovacuum do under load).
CREATE OR REPLACE FUNCTION tracking_numbers_slot() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.role = 'pool' THEN
    UPDATE campaigns c SET pool_size = c.pool_size + 1, pool_full_until = NULL
     WHERE c.id = NEW.campaign_id
    RETURNING c.pool_size - 1 INTO NEW.slot;
  ELSE
    NEW.slot := NULL;
  END IF;
  RETURN NEW;
END
$$;

CREATE OR REPLACE TRIGGER tracking_numbers_slot BEFORE INSERT ON "tracking_numbers"
  FOR EACH ROW EXECUTE FUNCTION tracking_numbers_slot();
