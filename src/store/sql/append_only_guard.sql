-- Evidence tables are append-only: a buyer's return, a consent change or an
-- admin action is a new row, never an edit, so these tables refuse UPDATE,
-- DELETE and TRUNCATE. One guard for all of them: it names the table it refuses.
CREATE OR REPLACE FUNCTION append_only_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only (% rejected)', TG_TABLE_NAME, TG_OP USING ERRCODE = '42501';
END
$$;

-- Two triggers a table: row-level for UPDATE and DELETE, statement-level for TRUNCATE.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['audit_log', 'buyer_report_events', 'consent_events'] LOOP
    EXECUTE format('CREATE OR REPLACE TRIGGER %I BEFORE UPDATE OR DELETE ON %I
                      FOR EACH ROW EXECUTE FUNCTION append_only_guard()', t || '_no_update_delete', t);
    EXECUTE format('CREATE OR REPLACE TRIGGER %I BEFORE TRUNCATE ON %I
                      FOR EACH STATEMENT EXECUTE FUNCTION append_only_guard()', t || '_no_truncate', t);
  END LOOP;
END
$$;
