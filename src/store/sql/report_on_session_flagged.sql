-- A live session whose number another visitor was given: ambiguous from now
-- on, counted in the cell of its creation (new sessions are counted by the DNI
-- batch itself, dni_open_sessions_counted).
CREATE OR REPLACE FUNCTION report_on_session_flagged() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_traffic_add(NEW.org_id, report_quarter(NEW.created_at), NEW.campaign_id,
    report_source(NEW.utm_source, NEW.gclid, NEW.gbraid, NEW.wbraid, NEW.fbclid, NEW.fbc, NEW.msclkid),
    NEW.utm_medium, NEW.utm_campaign, report_path(NEW.landing_url), '', NEW.tracking_number,
    ARRAY[0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]::bigint[]);
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER "report_sessions_flagged" AFTER UPDATE OF "ambiguous" ON "dni_sessions"
  FOR EACH ROW WHEN (NEW.ambiguous AND NOT OLD.ambiguous)
  EXECUTE FUNCTION report_on_session_flagged();
