-- A touch's counters, times p_sign, in its touch cells: one row with reason ''
-- (the touch itself) and one per reason code it was blocked for ('none' when
-- placed), so a grouping by reason counts a touch under each of its reasons while
-- totals count it once.
CREATE OR REPLACE FUNCTION report_touch_add(t outbound_touches, p_sign integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_touch_deltas (org_id, bucket, campaign_id, channel, purpose, outcome, state, reason,
    touches, placed, blocked, delivered, failed)
  SELECT t.org_id, report_quarter(t.decided_at), t.campaign_id, t.channel,
    coalesce(t.checks->'consent'->>'purpose', ''), o.outcome,
    coalesce(t.checks->'quiet_hours'->>'state', 'unknown'), r.reason,
    p_sign, p_sign * t.placed::int, p_sign * (NOT t.placed)::int,
    p_sign * (o.outcome = 'delivered')::int, p_sign * (o.outcome = 'failed')::int
  FROM (SELECT report_touch_outcome(t.placed, t.dispatch_status) AS outcome) o,
    (SELECT '' AS reason
     UNION ALL SELECT DISTINCT x->>'code' FROM jsonb_array_elements(t.reasons) x
     UNION ALL SELECT 'none' WHERE jsonb_array_length(t.reasons) = 0) r;
END
$$;
