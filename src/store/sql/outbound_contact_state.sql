-- The reads of one touch decision in one round trip, after the per-contact lock: a
-- VOLATILE function takes a fresh snapshot per statement, so the reads below see every
-- touch committed by the previous holder of the lock (one statement would not: its
-- snapshot predates the wait). Timestamps travel as epoch milliseconds.
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
