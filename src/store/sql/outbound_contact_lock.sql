-- The per-contact lock of outbound decisions, defined once: the touch path
-- (src/store/repos/touches.ts) and outbound_contact_state both take it here.
CREATE OR REPLACE FUNCTION outbound_contact_lock(p_org text, p_to text) RETURNS void
LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtextextended('outbound' || chr(31) || p_org || chr(31) || p_to, 0))
$$;
