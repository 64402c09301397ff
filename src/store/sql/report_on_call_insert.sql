-- A recorded call: its facts row, its first-time flag, its counters.
CREATE OR REPLACE FUNCTION report_on_call_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s dni_sessions;
  f report_calls;
  v_old report_calls;
  c report_callers;
  v_first boolean := true;
  v_state bigint[];
BEGIN
  f.call_id := NEW.id; f.org_id := NEW.org_id; f.started_at := NEW.started_at;
  f.campaign_id := NEW.campaign_id; f.attribution := NEW.attribution;
  f.tracking_number := NEW.tracking_number; f.caller := NEW.from_number;
  f.buyer_id := coalesce(NEW.buyer_id, '');
  f.source := 'unattributed'; f.medium := ''; f.utm_campaign := ''; f.landing_path := '';
  IF NEW.dni_session_id IS NOT NULL THEN
    SELECT * INTO s FROM dni_sessions WHERE id = NEW.dni_session_id;
    IF FOUND THEN
      f.source := report_source(s.utm_source, s.gclid, s.gbraid, s.wbraid, s.fbclid, s.fbc, s.msclkid);
      f.medium := coalesce(s.utm_medium, ''); f.utm_campaign := coalesce(s.utm_campaign, '');
      f.landing_path := coalesce(report_path(s.landing_url), '');
    END IF;
  END IF;
  INSERT INTO report_callers (org_id, caller, first_call_id, first_started_at)
  VALUES (NEW.org_id, NEW.from_number, NEW.id, NEW.started_at)
  ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    SELECT * INTO c FROM report_callers WHERE org_id = NEW.org_id AND caller = NEW.from_number FOR UPDATE;
    IF (NEW.started_at, NEW.id) < (c.first_started_at, c.first_call_id) THEN
      -- Recorded late but earlier than the caller's first call so far: that one becomes a repeat.
      UPDATE report_callers SET first_call_id = NEW.id, first_started_at = NEW.started_at
       WHERE org_id = NEW.org_id AND caller = NEW.from_number;
      UPDATE report_calls r SET first_time = false WHERE r.call_id = c.first_call_id RETURNING * INTO v_old;
      PERFORM report_add_call(v_old, ARRAY[0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]::bigint[]);
    ELSE
      v_first := false;
    END IF;
  END IF;
  f.first_time := v_first;
  -- The caller's report_callers row is locked from here (inserted, or selected FOR UPDATE), so
  -- the caller's calls are seen whole. Each key set's previous call, and the next call that
  -- this one now precedes (when recorded late) takes it as its previous.
  SELECT max(r.started_at),
         max(r.started_at) FILTER (WHERE r.campaign_id = f.campaign_id),
         max(r.started_at) FILTER (WHERE r.source = f.source),
         max(r.started_at) FILTER (WHERE r.campaign_id = f.campaign_id AND r.source = f.source)
    INTO f.prev_org, f.prev_campaign, f.prev_source, f.prev_campaign_source
    FROM report_calls r
   WHERE r.org_id = f.org_id AND r.caller = f.caller AND (r.started_at, r.call_id) < (f.started_at, f.call_id);
  IF EXISTS (SELECT 1 FROM report_calls n WHERE n.org_id = f.org_id AND n.caller = f.caller
               AND (n.started_at, n.call_id) > (f.started_at, f.call_id)) THEN
    UPDATE report_calls r SET prev_org = f.started_at
     WHERE r.call_id = (SELECT n.call_id FROM report_calls n
                         WHERE n.org_id = f.org_id AND n.caller = f.caller
                           AND (n.started_at, n.call_id) > (f.started_at, f.call_id)
                         ORDER BY n.started_at, n.call_id LIMIT 1);
    UPDATE report_calls r SET prev_campaign = f.started_at
     WHERE r.call_id = (SELECT n.call_id FROM report_calls n
                         WHERE n.org_id = f.org_id AND n.caller = f.caller AND n.campaign_id = f.campaign_id
                           AND (n.started_at, n.call_id) > (f.started_at, f.call_id)
                         ORDER BY n.started_at, n.call_id LIMIT 1);
    UPDATE report_calls r SET prev_source = f.started_at
     WHERE r.call_id = (SELECT n.call_id FROM report_calls n
                         WHERE n.org_id = f.org_id AND n.caller = f.caller AND n.source = f.source
                           AND (n.started_at, n.call_id) > (f.started_at, f.call_id)
                         ORDER BY n.started_at, n.call_id LIMIT 1);
    UPDATE report_calls r SET prev_campaign_source = f.started_at
     WHERE r.call_id = (SELECT n.call_id FROM report_calls n
                         WHERE n.org_id = f.org_id AND n.caller = f.caller AND n.campaign_id = f.campaign_id
                           AND n.source = f.source AND (n.started_at, n.call_id) > (f.started_at, f.call_id)
                         ORDER BY n.started_at, n.call_id LIMIT 1);
  END IF;
  INSERT INTO report_calls VALUES (f.*);
  v_state := report_call_state(NEW, 1);
  PERFORM report_add_call(f, (SELECT array_agg(a + b ORDER BY o) FROM unnest(
    ARRAY[0, 0, 0, 0, 0, 1, (NEW.dni_session_id IS NOT NULL)::int, NEW.ambiguous::int, v_first::int, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]::bigint[], v_state) WITH ORDINALITY AS u(a, b, o)));
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER "report_calls_insert" AFTER INSERT ON "calls"
  FOR EACH ROW EXECUTE FUNCTION report_on_call_insert();
