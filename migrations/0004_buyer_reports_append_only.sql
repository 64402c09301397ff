-- Buyer report events are the evidence behind a call's disposition: a
-- buyer's return is a new event, never an edit, so the table refuses
-- UPDATE, DELETE and TRUNCATE like audit_log does.
CREATE FUNCTION append_only_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (% rejected)', TG_TABLE_NAME, TG_OP USING ERRCODE = '42501';
END
$$;
--> statement-breakpoint
CREATE TRIGGER buyer_report_events_no_update_delete
  BEFORE UPDATE OR DELETE ON buyer_report_events
  FOR EACH ROW EXECUTE FUNCTION append_only_guard();
--> statement-breakpoint
CREATE TRIGGER buyer_report_events_no_truncate
  BEFORE TRUNCATE ON buyer_report_events
  FOR EACH STATEMENT EXECUTE FUNCTION append_only_guard();
