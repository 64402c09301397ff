-- One event's counters (p_m in the order of the columns): one delta row with every key
-- (grain 3), which report_compact adds to the cells of every grain. Sessions have no buyer
-- (buyer_id ''); a call's counters go through report_add_call, which names its buyer. An array
-- of 21 counters (the writers before the buyer counters) leaves the last three 0.
CREATE OR REPLACE FUNCTION report_traffic_add(
  p_org text, p_bucket timestamptz, p_campaign text, p_source text, p_medium text,
  p_utm_campaign text, p_path text, p_attribution text, p_number text, p_m bigint[]
) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_traffic_deltas (grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number, sessions, sessions_shared, sessions_overflow, sessions_ambiguous, session_renewals, calls, calls_with_session, calls_on_shared_number, calls_first_time, calls_answered, calls_missed, calls_under_30s, calls_30s_to_2m, calls_2m_to_10m, calls_over_10m, buyer_reports, buyer_corrections, buyer_success, buyer_rejected, buyer_reported_calls, buyer_report_seconds_sum, calls_answered_by_buyer, calls_billable, revenue_cents)
  SELECT 3, p_org, p_bucket, p_campaign, p_source, coalesce(p_medium, ''),
    coalesce(p_utm_campaign, ''), coalesce(p_path, ''), coalesce(p_attribution, ''),
    coalesce(p_number, ''),
    p_m[1],
    p_m[2],
    p_m[3],
    p_m[4],
    p_m[5],
    p_m[6],
    p_m[7],
    p_m[8],
    p_m[9],
    p_m[10],
    p_m[11],
    p_m[12],
    p_m[13],
    p_m[14],
    p_m[15],
    p_m[16],
    p_m[17],
    p_m[18],
    p_m[19],
    p_m[20],
    p_m[21],
    coalesce(p_m[22], 0),
    coalesce(p_m[23], 0),
    coalesce(p_m[24], 0);
END
$$;
