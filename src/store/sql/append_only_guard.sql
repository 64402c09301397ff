-- Evidence tables are append-only: a buyer's return, a consent change or an
-- admin action is a new row, never an edit, so these tables refuse UPDATE,
-- DELETE and TRUNCATE. One guard for all of them: it names the table it refuses.
CREATE OR REPLACE FUNCTION append_only_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (% rejected)', TG_TABLE_NAME, TG_OP USING ERRCODE = '42501';
END
$$;

CREATE OR REPLACE TRIGGER audit_log_no_update_delete
  BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION append_only_guard();

CREATE OR REPLACE TRIGGER audit_log_no_truncate
  BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION append_only_guard();

CREATE OR REPLACE TRIGGER buyer_report_events_no_update_delete
  BEFORE UPDATE OR DELETE ON buyer_report_events
  FOR EACH ROW EXECUTE FUNCTION append_only_guard();

CREATE OR REPLACE TRIGGER buyer_report_events_no_truncate
  BEFORE TRUNCATE ON buyer_report_events
  FOR EACH STATEMENT EXECUTE FUNCTION append_only_guard();

CREATE OR REPLACE TRIGGER consent_events_no_update_delete
  BEFORE UPDATE OR DELETE ON consent_events
  FOR EACH ROW EXECUTE FUNCTION append_only_guard();

CREATE OR REPLACE TRIGGER consent_events_no_truncate
  BEFORE TRUNCATE ON consent_events
  FOR EACH STATEMENT EXECUTE FUNCTION append_only_guard();
