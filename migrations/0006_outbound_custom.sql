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
--> statement-breakpoint
-- The reads of one touch decision in one round trip, after the per-contact lock: a
-- VOLATILE function takes a fresh snapshot per statement, so the reads below see every
-- touch committed by the previous holder of the lock (one statement would not: its
-- snapshot predates the wait). Timestamps travel as epoch milliseconds.
CREATE FUNCTION outbound_contact_state(p_org text, p_to text, p_since timestamptz)
RETURNS TABLE (consent jsonb, history jsonb)
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(
    hashtextextended('outbound' || chr(31) || p_org || chr(31) || p_to, 0));
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
