-- Folds up to p_limit deltas of each kind into the rollups, the quarter hours and
-- the local days at once, in one statement each, so a report (one statement,
-- one snapshot) sees every delta exactly once. An organization whose zone is
-- not the one its days are kept in gets its days built again first (from the
-- quarter hours, which hold every folded delta); the fold then adds to the days
-- of the zone report_day_zones names, read in the fold's own statement.
-- Returns how many deltas were folded.
CREATE OR REPLACE FUNCTION report_compact(p_limit integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE n1 integer; n2 integer;
BEGIN
  PERFORM report_days_rebuild(o.id, o.time_zone)
     FROM orgs o LEFT JOIN report_day_zones z ON z.org_id = o.id
    WHERE z.time_zone IS DISTINCT FROM o.time_zone;
  WITH moved AS (
    DELETE FROM report_traffic_deltas d
     USING (SELECT seq FROM report_traffic_deltas ORDER BY seq LIMIT p_limit) x
     WHERE d.seq = x.seq
    RETURNING d.*
  ), cells AS (
    -- Writers append one delta per event with every key (grain 3); each becomes a cell of every
    -- grain here. A delta of another grain (written before the writers did this) repeats its
    -- event's grain-3 delta and is dropped.
    SELECT g.grain, m.org_id, m.bucket, m.campaign_id, m.source,
      CASE WHEN g.grain IN (1, 3) THEN m.medium ELSE '' END AS medium,
      CASE WHEN g.grain IN (1, 3) THEN m.utm_campaign ELSE '' END AS utm_campaign,
      CASE WHEN g.grain IN (1, 3) THEN m.landing_path ELSE '' END AS landing_path,
      CASE WHEN g.grain > 0 THEN m.attribution ELSE '' END AS attribution,
      CASE WHEN g.grain >= 2 THEN m.tracking_number ELSE '' END AS tracking_number,
      CASE WHEN g.grain >= 2 THEN m.buyer_id ELSE '' END AS buyer_id,
      m.sessions, m.sessions_shared, m.sessions_overflow, m.sessions_ambiguous, m.session_renewals, m.calls, m.calls_with_session, m.calls_on_shared_number, m.calls_first_time, m.calls_answered, m.calls_missed, m.calls_under_30s, m.calls_30s_to_2m, m.calls_2m_to_10m, m.calls_over_10m, m.buyer_reports, m.buyer_corrections, m.buyer_success, m.buyer_rejected, m.buyer_reported_calls, m.buyer_report_seconds_sum, m.calls_answered_by_buyer, m.calls_billable, m.revenue_cents
      FROM moved m CROSS JOIN (VALUES (0), (1), (3)) g(grain)
     WHERE m.grain = 3
  ), folded AS (
    INSERT INTO report_traffic_rollups AS r (grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number, buyer_id, sessions, sessions_shared, sessions_overflow, sessions_ambiguous, session_renewals, calls, calls_with_session, calls_on_shared_number, calls_first_time, calls_answered, calls_missed, calls_under_30s, calls_30s_to_2m, calls_2m_to_10m, calls_over_10m, buyer_reports, buyer_corrections, buyer_success, buyer_rejected, buyer_reported_calls, buyer_report_seconds_sum, calls_answered_by_buyer, calls_billable, revenue_cents)
    SELECT grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number, buyer_id, coalesce(sum(sessions), 0), coalesce(sum(sessions_shared), 0), coalesce(sum(sessions_overflow), 0), coalesce(sum(sessions_ambiguous), 0), coalesce(sum(session_renewals), 0), coalesce(sum(calls), 0), coalesce(sum(calls_with_session), 0), coalesce(sum(calls_on_shared_number), 0), coalesce(sum(calls_first_time), 0), coalesce(sum(calls_answered), 0), coalesce(sum(calls_missed), 0), coalesce(sum(calls_under_30s), 0), coalesce(sum(calls_30s_to_2m), 0), coalesce(sum(calls_2m_to_10m), 0), coalesce(sum(calls_over_10m), 0), coalesce(sum(buyer_reports), 0), coalesce(sum(buyer_corrections), 0), coalesce(sum(buyer_success), 0), coalesce(sum(buyer_rejected), 0), coalesce(sum(buyer_reported_calls), 0), coalesce(sum(buyer_report_seconds_sum), 0), coalesce(sum(calls_answered_by_buyer), 0), coalesce(sum(calls_billable), 0), coalesce(sum(revenue_cents), 0)
      FROM cells GROUP BY grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number, buyer_id
    ON CONFLICT ("org_id", "grain", "bucket", "campaign_id", "source", "medium", "utm_campaign", "landing_path", "attribution", "tracking_number", "buyer_id") DO UPDATE SET
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
    "buyer_report_seconds_sum" = r."buyer_report_seconds_sum" + excluded."buyer_report_seconds_sum",
    "calls_answered_by_buyer" = r."calls_answered_by_buyer" + excluded."calls_answered_by_buyer",
    "calls_billable" = r."calls_billable" + excluded."calls_billable",
    "revenue_cents" = r."revenue_cents" + excluded."revenue_cents"
  ), days AS (
    INSERT INTO report_traffic_days AS r (grain, org_id, day, campaign_id, source, medium, utm_campaign, landing_path, attribution, sessions, sessions_shared, sessions_overflow, sessions_ambiguous, session_renewals, calls, calls_with_session, calls_on_shared_number, calls_first_time, calls_answered, calls_missed, calls_under_30s, calls_30s_to_2m, calls_2m_to_10m, calls_over_10m, buyer_reports, buyer_corrections, buyer_success, buyer_rejected, buyer_reported_calls, buyer_report_seconds_sum, calls_answered_by_buyer, calls_billable, revenue_cents)
    SELECT m.grain, m.org_id, (m.bucket AT TIME ZONE z.time_zone)::date, m.campaign_id, m.source, m.medium, m.utm_campaign, m.landing_path, m.attribution, coalesce(sum(m.sessions), 0), coalesce(sum(m.sessions_shared), 0), coalesce(sum(m.sessions_overflow), 0), coalesce(sum(m.sessions_ambiguous), 0), coalesce(sum(m.session_renewals), 0), coalesce(sum(m.calls), 0), coalesce(sum(m.calls_with_session), 0), coalesce(sum(m.calls_on_shared_number), 0), coalesce(sum(m.calls_first_time), 0), coalesce(sum(m.calls_answered), 0), coalesce(sum(m.calls_missed), 0), coalesce(sum(m.calls_under_30s), 0), coalesce(sum(m.calls_30s_to_2m), 0), coalesce(sum(m.calls_2m_to_10m), 0), coalesce(sum(m.calls_over_10m), 0), coalesce(sum(m.buyer_reports), 0), coalesce(sum(m.buyer_corrections), 0), coalesce(sum(m.buyer_success), 0), coalesce(sum(m.buyer_rejected), 0), coalesce(sum(m.buyer_reported_calls), 0), coalesce(sum(m.buyer_report_seconds_sum), 0), coalesce(sum(m.calls_answered_by_buyer), 0), coalesce(sum(m.calls_billable), 0), coalesce(sum(m.revenue_cents), 0)
      FROM cells m JOIN report_day_zones z ON z.org_id = m.org_id
     WHERE m.grain IN (0, 1)
     GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    ON CONFLICT ("org_id", "grain", "day", "campaign_id", "source", "medium", "utm_campaign", "landing_path", "attribution") DO UPDATE SET
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
    "buyer_report_seconds_sum" = r."buyer_report_seconds_sum" + excluded."buyer_report_seconds_sum",
    "calls_answered_by_buyer" = r."calls_answered_by_buyer" + excluded."calls_answered_by_buyer",
    "calls_billable" = r."calls_billable" + excluded."calls_billable",
    "revenue_cents" = r."revenue_cents" + excluded."revenue_cents"
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
  ), days AS (
    INSERT INTO report_touch_days AS r (org_id, day, campaign_id, channel, purpose, outcome, state, reason, touches, placed, blocked, delivered, failed)
    SELECT m.org_id, (m.bucket AT TIME ZONE z.time_zone)::date, m.campaign_id, m.channel, m.purpose, m.outcome, m.state, m.reason, sum(m.touches), sum(m.placed), sum(m.blocked), sum(m.delivered), sum(m.failed)
      FROM moved m JOIN report_day_zones z ON z.org_id = m.org_id
     GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT ("org_id", "day", "campaign_id", "channel", "purpose", "outcome", "state", "reason") DO UPDATE SET
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
