-- A carrier status, a buyer report, the buyer who answered, billable or payout
-- changed a call: move it between cells. When the buyer changes, the call's
-- change is first counted in its old cell, then all the call has added there
-- (report_call_whole) moves to the new buyer's cell, and the facts row names
-- the new buyer for every later change.
CREATE OR REPLACE FUNCTION report_on_call_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  f report_calls;
  v_m bigint[];
  v_w bigint[];
BEGIN
  SELECT * INTO f FROM report_calls WHERE call_id = NEW.id;
  IF NOT FOUND THEN RETURN NULL; END IF;
  SELECT array_agg(a + b ORDER BY o) INTO v_m
    FROM unnest(report_call_state(NEW, 1), report_call_state(OLD, -1)) WITH ORDINALITY AS u(a, b, o);
  IF NEW.disposition_event_id IS DISTINCT FROM OLD.disposition_event_id THEN
    SELECT array_agg(a + b ORDER BY o) INTO v_m
      FROM unnest(v_m, ARRAY[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, (OLD.disposition_event_id IS NOT NULL)::int, 0, 0, (OLD.disposition_event_id IS NULL)::int, CASE WHEN OLD.disposition_event_id IS NULL THEN floor(extract(epoch FROM NEW.disposition_at - NEW.started_at))::bigint ELSE 0 END, 0, 0, 0]::bigint[]) WITH ORDINALITY AS u(a, b, o);
  END IF;
  IF EXISTS (SELECT 1 FROM unnest(v_m) x WHERE x <> 0) THEN
    PERFORM report_add_call(f, v_m);
  END IF;
  IF coalesce(NEW.buyer_id, '') <> f.buyer_id THEN
    v_w := report_call_whole(NEW, f);
    PERFORM report_add_call(f, (SELECT array_agg(-x ORDER BY o) FROM unnest(v_w) WITH ORDINALITY AS u(x, o)));
    UPDATE report_calls SET buyer_id = coalesce(NEW.buyer_id, '') WHERE call_id = NEW.id RETURNING * INTO f;
    PERFORM report_add_call(f, v_w);
  END IF;
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER "report_calls_update" AFTER UPDATE OF "status", "duration_seconds", "disposition_event_id", "buyer_id", "billable", "payout" ON "calls"
  FOR EACH ROW EXECUTE FUNCTION report_on_call_update();
