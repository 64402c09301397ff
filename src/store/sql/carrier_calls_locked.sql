-- A carrier webhook's first statement, for one call or a batch of them: it takes the lock of
-- each carrier call id for the rest of the transaction (a retried or later webhook of the same
-- call waits for the first to commit), then reads the calls as stored (a call not stored yet
-- has no row). PL/pgSQL and VOLATILE, so the read takes its snapshot after the locks are
-- granted and sees what the webhooks it waited for committed: one SQL statement would take its
-- snapshot before the wait. The locks are taken in the order of their keys, so two batches
-- that share a call id never each hold a lock the other waits for. One round trip for all.
--
-- With each call, what the webhooks after its first read (docs/routing.md, "What a call
-- costs"), so that a Dial action or a final status runs no read of its own:
--   offers:   its offers in order, each with its buyer's payout rules as they stand now;
--   events:   the webhook event types its organization's enabled endpoints take ('*': all);
--   triggers: the triggers of the enabled conversion destinations that take its campaign.
CREATE OR REPLACE FUNCTION carrier_calls_locked(p_carrier text, p_call_sids text[])
RETURNS TABLE (call_sid text, call_id text, org_id text, campaign_id text, campaign_code text,
               forward_to text, status text, from_number text, started_at timestamptz,
               buyer_id text, fallback text, offers jsonb, events text[], triggers text[])
LANGUAGE plpgsql VOLATILE
-- One plan for every call: a custom plan, chosen for each array of call ids, was planned anew
-- at each webhook (about 0.2 ms of the server's time on the 2-core machine).
SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  k bigint;
BEGIN
  FOR k IN
    SELECT DISTINCT hashtextextended(p_carrier || ':' || s, 0)
      FROM unnest(p_call_sids) s
     ORDER BY 1
  LOOP
    PERFORM pg_advisory_xact_lock(k);
  END LOOP;
  RETURN QUERY
    SELECT c.carrier_call_sid, c.id, c.org_id, c.campaign_id, cp.code, cp.forward_to, c.status,
           c.from_number, c.started_at, c.buyer_id, c.fallback,
           coalesce((SELECT jsonb_agg(jsonb_build_object(
                        'id', o.id, 'seq', o.seq, 'buyer_id', o.buyer_id,
                        'offered_at', o.offered_at, 'ended_at', o.ended_at,
                        'outcome', o.outcome, 'duration_seconds', o.duration_seconds,
                        'hour_start', o.hour_start, 'day_start', o.day_start,
                        'month_start', o.month_start,
                        'payout_amount', b.payout_amount::text,
                        'payout_min_duration_seconds', b.payout_min_duration_seconds,
                        'payout_duplicate_window_days', b.payout_duplicate_window_days)
                      ORDER BY o.seq)
                       FROM call_offers o
                       LEFT JOIN buyers b ON b.id = o.buyer_id
                      WHERE o.call_id = c.id), '[]'::jsonb),
           coalesce((SELECT array_agg(DISTINCT ev)
                       FROM webhook_endpoints e, unnest(e.events) ev
                      WHERE e.org_id = c.org_id AND e.enabled), '{}'),
           coalesce((SELECT array_agg(DISTINCT d.trigger->>'event')
                       FROM conversion_destinations d
                      WHERE d.org_id = c.org_id AND d.enabled
                        AND (d.campaigns IS NULL OR cp.code = ANY(d.campaigns))), '{}')
      FROM calls c
      JOIN campaigns cp ON cp.id = c.campaign_id
     WHERE c.carrier = p_carrier AND c.carrier_call_sid = ANY(p_call_sids);
END
$$;
