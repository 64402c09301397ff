-- Each campaign's clock hand is a sequence of its own (dni_open_sessions draws
-- from it), made as the campaign is.
CREATE OR REPLACE FUNCTION campaigns_create_clock() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE SEQUENCE IF NOT EXISTS %I MINVALUE 0 START 0', dni_clock_name(NEW.id));
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER campaigns_create_clock AFTER INSERT ON "campaigns"
  FOR EACH ROW EXECUTE FUNCTION campaigns_create_clock();
