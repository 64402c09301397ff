-- A carrier webhook's first statement: it takes the lock of the carrier's call id for the rest
-- of the transaction (a retried or later webhook of the same call waits for the first to
-- commit), then reads the call as stored. PL/pgSQL and VOLATILE, so the read takes its snapshot
-- after the lock is granted and sees what the webhook it waited for committed: one SQL
-- statement would take its snapshot before the wait. One round trip for both.
CREATE OR REPLACE FUNCTION carrier_call_locked(p_carrier text, p_call_sid text)
RETURNS TABLE (call_id text, org_id text, campaign_id text, campaign_code text, forward_to text,
               status text, from_number text, started_at timestamptz, buyer_id text,
               fallback text)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended(p_carrier || ':' || p_call_sid, 0));
  RETURN QUERY
    SELECT c.id, c.org_id, c.campaign_id, cp.code, cp.forward_to, c.status, c.from_number,
           c.started_at, c.buyer_id, c.fallback
      FROM calls c
      JOIN campaigns cp ON cp.id = c.campaign_id
     WHERE c.carrier = p_carrier AND c.carrier_call_sid = p_call_sid;
END
$$;
