-- Every rollup of one organization computed again from its raw rows, for data
-- recorded before the reporting migrations and for a bulk load (npm run
-- bench). Run it while the organization records nothing. Renewal times are not
-- kept on the session, so its renewals (hits - 1) land in the cell of its
-- creation here. The cells go straight into the quarter-hour rollups (one
-- grouped insert: sessions and calls of a cell in one row), then the local
-- days are built from them in the organization's zone.
CREATE OR REPLACE FUNCTION report_rebuild(p_org text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM report_traffic_rollups WHERE org_id = p_org;
  DELETE FROM report_traffic_deltas WHERE org_id = p_org;
  DELETE FROM report_touch_rollups WHERE org_id = p_org;
  DELETE FROM report_touch_deltas WHERE org_id = p_org;
  DELETE FROM report_calls WHERE org_id = p_org;
  DELETE FROM report_callers WHERE org_id = p_org;

  INSERT INTO report_callers (org_id, caller, first_call_id, first_started_at)
  SELECT DISTINCT ON (c.from_number) c.org_id, c.from_number, c.id, c.started_at
    FROM calls c WHERE c.org_id = p_org ORDER BY c.from_number, c.started_at, c.id;

  INSERT INTO report_calls (call_id, org_id, started_at, campaign_id, source, medium, utm_campaign,
    landing_path, attribution, tracking_number, caller, first_time, buyer_id,
    prev_org, prev_campaign, prev_source, prev_campaign_source)
  SELECT f.*,
    lag(f.started_at) OVER (PARTITION BY f.caller ORDER BY f.started_at, f.call_id),
    lag(f.started_at) OVER (PARTITION BY f.caller, f.campaign_id ORDER BY f.started_at, f.call_id),
    lag(f.started_at) OVER (PARTITION BY f.caller, f.source ORDER BY f.started_at, f.call_id),
    lag(f.started_at) OVER (PARTITION BY f.caller, f.campaign_id, f.source ORDER BY f.started_at, f.call_id)
  FROM (SELECT c.id AS call_id, c.org_id, c.started_at, c.campaign_id,
          CASE WHEN s.id IS NULL THEN 'unattributed'
            ELSE report_source(s.utm_source, s.gclid, s.gbraid, s.wbraid, s.fbclid, s.fbc, s.msclkid) END AS source,
          coalesce(s.utm_medium, '') AS medium, coalesce(s.utm_campaign, '') AS utm_campaign,
          coalesce(report_path(s.landing_url), '') AS landing_path,
          c.attribution, c.tracking_number, c.from_number AS caller, rc.first_call_id = c.id AS first_time,
          coalesce(c.buyer_id, '') AS buyer_id
        FROM calls c
        LEFT JOIN dni_sessions s ON s.id = c.dni_session_id
        JOIN report_callers rc ON rc.org_id = c.org_id AND rc.caller = c.from_number
        WHERE c.org_id = p_org) f
  -- In the order calls arrive, as the trigger writes them: a range of starts is a run of pages.
  ORDER BY f.started_at, f.call_id;

  INSERT INTO report_traffic_rollups (grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number, buyer_id, sessions, sessions_shared, sessions_overflow, sessions_ambiguous, session_renewals, calls, calls_with_session, calls_on_shared_number, calls_first_time, calls_answered, calls_missed, calls_under_30s, calls_30s_to_2m, calls_2m_to_10m, calls_over_10m, buyer_reports, buyer_corrections, buyer_success, buyer_rejected, buyer_reported_calls, buyer_report_seconds_sum, calls_answered_by_buyer, calls_billable, revenue_cents)
  SELECT g.grain, u.org_id, u.bucket, u.campaign_id, u.source,
    CASE WHEN g.grain IN (1, 3) THEN u.medium ELSE '' END,
    CASE WHEN g.grain IN (1, 3) THEN u.utm_campaign ELSE '' END,
    CASE WHEN g.grain IN (1, 3) THEN u.landing_path ELSE '' END,
    CASE WHEN g.grain > 0 THEN u.attribution ELSE '' END,
    CASE WHEN g.grain >= 2 THEN u.tracking_number ELSE '' END,
    CASE WHEN g.grain >= 2 THEN u.buyer_id ELSE '' END,
    sum(u.sessions), sum(u.sessions_shared), sum(u.sessions_overflow), sum(u.sessions_ambiguous), sum(u.session_renewals), sum(u.calls), sum(u.calls_with_session), sum(u.calls_on_shared_number), sum(u.calls_first_time), sum(u.calls_answered), sum(u.calls_missed), sum(u.calls_under_30s), sum(u.calls_30s_to_2m), sum(u.calls_2m_to_10m), sum(u.calls_over_10m), sum(u.buyer_reports), sum(u.buyer_corrections), sum(u.buyer_success), sum(u.buyer_rejected), sum(u.buyer_reported_calls), sum(u.buyer_report_seconds_sum), sum(u.calls_answered_by_buyer), sum(u.calls_billable), sum(u.revenue_cents)
  FROM (
    SELECT s.org_id, report_quarter(s.created_at) AS bucket, s.campaign_id,
      report_source(s.utm_source, s.gclid, s.gbraid, s.wbraid, s.fbclid, s.fbc, s.msclkid) AS source,
      coalesce(s.utm_medium, '') AS medium, coalesce(s.utm_campaign, '') AS utm_campaign,
      coalesce(report_path(s.landing_url), '') AS landing_path, '' AS attribution, s.tracking_number, '' AS buyer_id,
      1::bigint AS sessions, (s.kind = 'shared')::int::bigint AS sessions_shared,
      (s.kind = 'overflow')::int::bigint AS sessions_overflow, s.ambiguous::int::bigint AS sessions_ambiguous,
      (s.hits - 1)::bigint AS session_renewals,
      0::bigint AS calls, 0::bigint AS calls_with_session, 0::bigint AS calls_on_shared_number, 0::bigint AS calls_first_time, 0::bigint AS calls_answered, 0::bigint AS calls_missed, 0::bigint AS calls_under_30s, 0::bigint AS calls_30s_to_2m, 0::bigint AS calls_2m_to_10m, 0::bigint AS calls_over_10m, 0::bigint AS buyer_reports, 0::bigint AS buyer_corrections, 0::bigint AS buyer_success, 0::bigint AS buyer_rejected, 0::bigint AS buyer_reported_calls, 0::bigint AS buyer_report_seconds_sum,
      0::bigint AS calls_answered_by_buyer, 0::bigint AS calls_billable, 0::bigint AS revenue_cents
    FROM dni_sessions s WHERE s.org_id = p_org
    UNION ALL
    SELECT f.org_id, report_quarter(f.started_at), f.campaign_id, f.source, f.medium, f.utm_campaign,
      f.landing_path, f.attribution, f.tracking_number, f.buyer_id,
      0, 0, 0, 0, 0,
      1, (c.dni_session_id IS NOT NULL)::int, c.ambiguous::int, f.first_time::int,
      (report_call_outcome(c.status, c.duration_seconds) IS NOT DISTINCT FROM 'answered')::int,
      (report_call_outcome(c.status, c.duration_seconds) IS NOT DISTINCT FROM 'missed')::int,
      (report_call_band(c.status, c.duration_seconds) IS NOT DISTINCT FROM 0)::int,
      (report_call_band(c.status, c.duration_seconds) IS NOT DISTINCT FROM 1)::int,
      (report_call_band(c.status, c.duration_seconds) IS NOT DISTINCT FROM 2)::int,
      (report_call_band(c.status, c.duration_seconds) IS NOT DISTINCT FROM 3)::int,
      coalesce(e.n, 0), coalesce(e.n - 1, 0),
      (c.disposition IS NOT DISTINCT FROM 'success')::int, (c.disposition IS NOT DISTINCT FROM 'rejected')::int,
      (e.n IS NOT NULL)::int, coalesce(floor(extract(epoch FROM e.first_at - c.started_at))::bigint, 0),
      (c.buyer_id IS NOT NULL)::int, coalesce(c.billable, false)::int,
      CASE WHEN c.billable AND c.disposition IS DISTINCT FROM 'rejected' THEN round(coalesce(c.payout, 0) * 100)::bigint ELSE 0 END
    FROM report_calls f
    JOIN calls c ON c.id = f.call_id
    LEFT JOIN (SELECT b.call_id, count(*) AS n, min(b.at) AS first_at FROM buyer_report_events b
                WHERE b.org_id = p_org GROUP BY b.call_id) e ON e.call_id = c.id
    WHERE f.org_id = p_org
  ) u
  CROSS JOIN (VALUES (0), (1), (3)) g(grain)
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11;

  INSERT INTO report_touch_rollups (org_id, bucket, campaign_id, channel, purpose, outcome, state, reason, touches, placed, blocked, delivered, failed)
  SELECT t.org_id, report_quarter(t.decided_at), t.campaign_id, t.channel, t.purpose, t.outcome, t.state, r.reason,
    count(*), count(*) FILTER (WHERE t.placed), count(*) FILTER (WHERE NOT t.placed),
    count(*) FILTER (WHERE t.outcome = 'delivered'), count(*) FILTER (WHERE t.outcome = 'failed')
  FROM (SELECT x.org_id, x.decided_at, x.campaign_id, x.channel, x.placed, x.reasons,
          coalesce(x.checks->'consent'->>'purpose', '') AS purpose,
          report_touch_outcome(x.placed, x.dispatch_status) AS outcome,
          coalesce(x.checks->'quiet_hours'->>'state', 'unknown') AS state
          FROM outbound_touches x WHERE x.org_id = p_org) t
  CROSS JOIN LATERAL (SELECT '' AS reason
     UNION ALL SELECT DISTINCT y->>'code' FROM jsonb_array_elements(t.reasons) y
     UNION ALL SELECT 'none' WHERE jsonb_array_length(t.reasons) = 0) r
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;

  PERFORM report_days_rebuild(p_org, (SELECT o.time_zone FROM orgs o WHERE o.id = p_org));
END
$$;
