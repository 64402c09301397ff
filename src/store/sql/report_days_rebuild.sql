-- One organization's local days built again from its quarter hours, in the zone
-- given, which becomes the zone its days are kept in (report_compact calls it
-- when the organization's zone changed, report_rebuild after a rebuild). The
-- deltas not folded yet stay out of both, and the next fold adds them to both.
CREATE OR REPLACE FUNCTION report_days_rebuild(p_org text, p_zone text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM report_traffic_days WHERE org_id = p_org;
  DELETE FROM report_touch_days WHERE org_id = p_org;
  INSERT INTO report_traffic_days (grain, org_id, day, campaign_id, source, medium, utm_campaign, landing_path, attribution, sessions, sessions_shared, sessions_overflow, sessions_ambiguous, session_renewals, calls, calls_with_session, calls_on_shared_number, calls_first_time, calls_answered, calls_missed, calls_under_30s, calls_30s_to_2m, calls_2m_to_10m, calls_over_10m, buyer_reports, buyer_corrections, buyer_success, buyer_rejected, buyer_reported_calls, buyer_report_seconds_sum, calls_answered_by_buyer, calls_billable, revenue_cents)
  SELECT grain, org_id, (bucket AT TIME ZONE p_zone)::date, campaign_id, source, medium, utm_campaign, landing_path, attribution, sum(sessions), sum(sessions_shared), sum(sessions_overflow), sum(sessions_ambiguous), sum(session_renewals), sum(calls), sum(calls_with_session), sum(calls_on_shared_number), sum(calls_first_time), sum(calls_answered), sum(calls_missed), sum(calls_under_30s), sum(calls_30s_to_2m), sum(calls_2m_to_10m), sum(calls_over_10m), sum(buyer_reports), sum(buyer_corrections), sum(buyer_success), sum(buyer_rejected), sum(buyer_reported_calls), sum(buyer_report_seconds_sum), sum(calls_answered_by_buyer), sum(calls_billable), sum(revenue_cents)
    FROM report_traffic_rollups
   WHERE org_id = p_org AND grain IN (0, 1)
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9;
  INSERT INTO report_touch_days (org_id, day, campaign_id, channel, purpose, outcome, state, reason, touches, placed, blocked, delivered, failed)
  SELECT org_id, (bucket AT TIME ZONE p_zone)::date, campaign_id, channel, purpose, outcome, state, reason, sum(touches), sum(placed), sum(blocked), sum(delivered), sum(failed)
    FROM report_touch_rollups
   WHERE org_id = p_org
   GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
  INSERT INTO report_day_zones (org_id, time_zone) VALUES (p_org, p_zone)
  ON CONFLICT (org_id) DO UPDATE SET time_zone = excluded.time_zone;
END
$$;
