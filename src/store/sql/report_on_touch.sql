-- A touch decided, or its dispatch status changed: its counters move between
-- touch cells (one row per reason code, report_touch_add).
CREATE OR REPLACE FUNCTION report_on_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF report_touch_outcome(NEW.placed, NEW.dispatch_status)
       = report_touch_outcome(OLD.placed, OLD.dispatch_status) THEN RETURN NULL; END IF;
    PERFORM report_touch_add(OLD, -1);
  END IF;
  PERFORM report_touch_add(NEW, 1);
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER "report_touches_insert" AFTER INSERT ON "outbound_touches"
  FOR EACH ROW EXECUTE FUNCTION report_on_touch();

CREATE OR REPLACE TRIGGER "report_touches_update" AFTER UPDATE OF "dispatch_status" ON "outbound_touches"
  FOR EACH ROW EXECUTE FUNCTION report_on_touch();
