-- Folds up to p_limit deltas of each kind into the rollups, in one statement
-- each, so a report (one statement, one snapshot) sees every delta exactly once.
-- Returns how many were folded.
CREATE OR REPLACE FUNCTION report_compact(p_limit integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE n1 integer; n2 integer;
BEGIN
  WITH moved AS (
    DELETE FROM report_traffic_deltas d
     USING (SELECT seq FROM report_traffic_deltas ORDER BY seq LIMIT p_limit) x
     WHERE d.seq = x.seq
    RETURNING d.*
  ), folded AS (
    INSERT INTO report_traffic_rollups AS r (grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number, sessions, sessions_shared, sessions_overflow, sessions_ambiguous, session_renewals, calls, calls_with_session, calls_on_shared_number, calls_first_time, calls_answered, calls_missed, calls_under_30s, calls_30s_to_2m, calls_2m_to_10m, calls_over_10m, buyer_reports, buyer_corrections, buyer_success, buyer_rejected, buyer_reported_calls, buyer_report_seconds_sum)
    SELECT grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number, sum(sessions), sum(sessions_shared), sum(sessions_overflow), sum(sessions_ambiguous), sum(session_renewals), sum(calls), sum(calls_with_session), sum(calls_on_shared_number), sum(calls_first_time), sum(calls_answered), sum(calls_missed), sum(calls_under_30s), sum(calls_30s_to_2m), sum(calls_2m_to_10m), sum(calls_over_10m), sum(buyer_reports), sum(buyer_corrections), sum(buyer_success), sum(buyer_rejected), sum(buyer_reported_calls), sum(buyer_report_seconds_sum)
      FROM moved GROUP BY grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number
    ON CONFLICT ("org_id", "grain", "bucket", "campaign_id", "source", "medium", "utm_campaign", "landing_path", "attribution", "tracking_number") DO UPDATE SET
    "sessions" = r."sessions" + excluded."sessions",
    "sessions_shared" = r."sessions_shared" + excluded."sessions_shared",
    "sessions_overflow" = r."sessions_overflow" + excluded."sessions_overflow",
    "sessions_ambiguous" = r."sessions_ambiguous" + excluded."sessions_ambiguous",
    "session_renewals" = r."session_renewals" + excluded."session_renewals",
    "calls" = r."calls" + excluded."calls",
    "calls_with_session" = r."calls_with_session" + excluded."calls_with_session",
    "calls_on_shared_number" = r."calls_on_shared_number" + excluded."calls_on_shared_number",
    "calls_first_time" = r."calls_first_time" + excluded."calls_first_time",
    "calls_answered" = r."calls_answered" + excluded."calls_answered",
    "calls_missed" = r."calls_missed" + excluded."calls_missed",
    "calls_under_30s" = r."calls_under_30s" + excluded."calls_under_30s",
    "calls_30s_to_2m" = r."calls_30s_to_2m" + excluded."calls_30s_to_2m",
    "calls_2m_to_10m" = r."calls_2m_to_10m" + excluded."calls_2m_to_10m",
    "calls_over_10m" = r."calls_over_10m" + excluded."calls_over_10m",
    "buyer_reports" = r."buyer_reports" + excluded."buyer_reports",
    "buyer_corrections" = r."buyer_corrections" + excluded."buyer_corrections",
    "buyer_success" = r."buyer_success" + excluded."buyer_success",
    "buyer_rejected" = r."buyer_rejected" + excluded."buyer_rejected",
    "buyer_reported_calls" = r."buyer_reported_calls" + excluded."buyer_reported_calls",
    "buyer_report_seconds_sum" = r."buyer_report_seconds_sum" + excluded."buyer_report_seconds_sum"
  )
  SELECT count(*) INTO n1 FROM moved;
  WITH moved AS (
    DELETE FROM report_touch_deltas d
     USING (SELECT seq FROM report_touch_deltas ORDER BY seq LIMIT p_limit) x
     WHERE d.seq = x.seq
    RETURNING d.*
  ), folded AS (
    INSERT INTO report_touch_rollups AS r (org_id, bucket, campaign_id, channel, purpose, outcome, state, reason, touches, placed, blocked, delivered, failed)
    SELECT org_id, bucket, campaign_id, channel, purpose, outcome, state, reason, sum(touches), sum(placed), sum(blocked), sum(delivered), sum(failed)
      FROM moved GROUP BY org_id, bucket, campaign_id, channel, purpose, outcome, state, reason
    ON CONFLICT ("org_id", "bucket", "campaign_id", "channel", "purpose", "outcome", "state", "reason") DO UPDATE SET
    "touches" = r."touches" + excluded."touches",
    "placed" = r."placed" + excluded."placed",
    "blocked" = r."blocked" + excluded."blocked",
    "delivered" = r."delivered" + excluded."delivered",
    "failed" = r."failed" + excluded."failed"
  )
  SELECT count(*) INTO n2 FROM moved;
  RETURN n1 + n2;
END
$$;
