-- One append-only guard for every append-only table: append_only_guard()
-- (0004) names the table it refuses, so the per-table copies go.
CREATE OR REPLACE TRIGGER audit_log_no_update_delete
  BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION append_only_guard();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER audit_log_no_truncate
  BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION append_only_guard();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER consent_events_no_update_delete
  BEFORE UPDATE OR DELETE ON consent_events
  FOR EACH ROW EXECUTE FUNCTION append_only_guard();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER consent_events_no_truncate
  BEFORE TRUNCATE ON consent_events
  FOR EACH STATEMENT EXECUTE FUNCTION append_only_guard();
--> statement-breakpoint
DROP FUNCTION audit_log_append_only();
--> statement-breakpoint
DROP FUNCTION consent_events_append_only();
--> statement-breakpoint
-- Sessions, calls, touches and report events belong to a campaign of their
-- own organization: the foreign key is (campaign, organization), so a row
-- can name neither a missing campaign nor another organization's.
ALTER TABLE campaigns ADD CONSTRAINT campaigns_id_org_key UNIQUE (id, org_id);
--> statement-breakpoint
ALTER TABLE dni_sessions ADD CONSTRAINT dni_sessions_campaign_fk
  FOREIGN KEY (campaign_id, org_id) REFERENCES campaigns (id, org_id);
--> statement-breakpoint
ALTER TABLE calls ADD CONSTRAINT calls_campaign_fk
  FOREIGN KEY (campaign_id, org_id) REFERENCES campaigns (id, org_id);
--> statement-breakpoint
ALTER TABLE outbound_touches ADD CONSTRAINT outbound_touches_campaign_fk
  FOREIGN KEY (campaign_id, org_id) REFERENCES campaigns (id, org_id);
--> statement-breakpoint
ALTER TABLE buyer_report_events ADD CONSTRAINT buyer_report_events_campaign_fk
  FOREIGN KEY (campaign_id, org_id) REFERENCES campaigns (id, org_id);
--> statement-breakpoint
-- The per-contact lock of outbound decisions, defined once: the touch path
-- (src/store/repos/touches.ts) and outbound_contact_state both take it here.
CREATE FUNCTION outbound_contact_lock(p_org text, p_to text) RETURNS void
LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtextextended('outbound' || chr(31) || p_org || chr(31) || p_to, 0))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION outbound_contact_state(p_org text, p_to text, p_since timestamptz)
RETURNS TABLE (consent jsonb, history jsonb)
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM outbound_contact_lock(p_org, p_to);
  RETURN QUERY SELECT
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
        'id', e.id, 'kind', e.kind, 'tier', e.tier, 'ebr_basis', e.ebr_basis,
        'captured_at', floor(extract(epoch FROM e.captured_at) * 1000),
        'expires_at', floor(extract(epoch FROM e.expires_at) * 1000)) ORDER BY e.seq), '[]'::jsonb)
       FROM consent_events e WHERE e.org_id = p_org AND e.e164 = p_to),
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
        'at', floor(extract(epoch FROM t.decided_at) * 1000), 'channel', t.channel)), '[]'::jsonb)
       FROM outbound_touches t
      WHERE t.org_id = p_org AND t.to_e164 = p_to AND t.placed AND t.decided_at > p_since);
END
$$;
