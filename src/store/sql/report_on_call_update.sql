-- A carrier status or a buyer report changed a call: move it between cells.
CREATE OR REPLACE FUNCTION report_on_call_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  f report_calls;
  v_m bigint[];
BEGIN
  SELECT * INTO f FROM report_calls WHERE call_id = NEW.id;
  IF NOT FOUND THEN RETURN NULL; END IF;
  SELECT array_agg(a + b ORDER BY o) INTO v_m
    FROM unnest(report_call_state(NEW, 1), report_call_state(OLD, -1)) WITH ORDINALITY AS u(a, b, o);
  IF NEW.disposition_event_id IS DISTINCT FROM OLD.disposition_event_id THEN
    SELECT array_agg(a + b ORDER BY o) INTO v_m
      FROM unnest(v_m, ARRAY[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, (OLD.disposition_event_id IS NOT NULL)::int, 0, 0, (OLD.disposition_event_id IS NULL)::int, CASE WHEN OLD.disposition_event_id IS NULL THEN floor(extract(epoch FROM NEW.disposition_at - NEW.started_at))::bigint ELSE 0 END]::bigint[]) WITH ORDINALITY AS u(a, b, o);
  END IF;
  IF EXISTS (SELECT 1 FROM unnest(v_m) x WHERE x <> 0) THEN
    PERFORM report_add_call(f, v_m);
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER "report_calls_update" AFTER UPDATE OF "status", "duration_seconds", "disposition_event_id" ON "calls"
  FOR EACH ROW EXECUTE FUNCTION report_on_call_update();
