-- Other processes poll these rows by changed_at against the database clock,
-- so the stamp must come from that clock too, whatever the writer's clock says.
CREATE OR REPLACE FUNCTION stamp_changed_at() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_at := clock_timestamp();
  RETURN NEW;
END;
$$;

CREATE OR REPLACE TRIGGER orgs_stamp_changed_at BEFORE INSERT OR UPDATE ON "orgs"
  FOR EACH ROW EXECUTE FUNCTION stamp_changed_at();

CREATE OR REPLACE TRIGGER api_keys_stamp_changed_at BEFORE INSERT OR UPDATE ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION stamp_changed_at();
