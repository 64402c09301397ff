-- Consent history is evidence: a grant stays on file after it is revoked, and
-- nothing rewrites or removes an event (compliance-rules.md Part A point 1).
CREATE FUNCTION consent_events_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'consent_events is append-only (% rejected)', TG_OP USING ERRCODE = '42501';
END
$$;
--> statement-breakpoint
CREATE TRIGGER consent_events_no_update_delete
  BEFORE UPDATE OR DELETE ON consent_events
  FOR EACH ROW EXECUTE FUNCTION consent_events_append_only();
--> statement-breakpoint
CREATE TRIGGER consent_events_no_truncate
  BEFORE TRUNCATE ON consent_events
  FOR EACH STATEMENT EXECUTE FUNCTION consent_events_append_only();
