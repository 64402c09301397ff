-- A call's counters in the cells of its facts row, under its buyer ('' for none). An array of
-- 21 counters (the writers before the buyer counters) leaves the last three 0.
CREATE OR REPLACE FUNCTION report_add_call(f report_calls, p_m bigint[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_traffic_deltas (grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number, buyer_id, sessions, sessions_shared, sessions_overflow, sessions_ambiguous, session_renewals, calls, calls_with_session, calls_on_shared_number, calls_first_time, calls_answered, calls_missed, calls_under_30s, calls_30s_to_2m, calls_2m_to_10m, calls_over_10m, buyer_reports, buyer_corrections, buyer_success, buyer_rejected, buyer_reported_calls, buyer_report_seconds_sum, calls_answered_by_buyer, calls_billable, revenue_cents)
  VALUES (3, f.org_id, report_quarter(f.started_at), f.campaign_id, f.source, coalesce(f.medium, ''),
    coalesce(f.utm_campaign, ''), coalesce(f.landing_path, ''), coalesce(f.attribution, ''),
    coalesce(f.tracking_number, ''), coalesce(f.buyer_id, ''),
    coalesce(p_m[1], 0),
    coalesce(p_m[2], 0),
    coalesce(p_m[3], 0),
    coalesce(p_m[4], 0),
    coalesce(p_m[5], 0),
    coalesce(p_m[6], 0),
    coalesce(p_m[7], 0),
    coalesce(p_m[8], 0),
    coalesce(p_m[9], 0),
    coalesce(p_m[10], 0),
    coalesce(p_m[11], 0),
    coalesce(p_m[12], 0),
    coalesce(p_m[13], 0),
    coalesce(p_m[14], 0),
    coalesce(p_m[15], 0),
    coalesce(p_m[16], 0),
    coalesce(p_m[17], 0),
    coalesce(p_m[18], 0),
    coalesce(p_m[19], 0),
    coalesce(p_m[20], 0),
    coalesce(p_m[21], 0),
    coalesce(p_m[22], 0),
    coalesce(p_m[23], 0),
    coalesce(p_m[24], 0));
END
$$;
