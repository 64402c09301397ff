-- Every rollup of one organization computed again from its raw rows, for data
-- recorded before the reporting migration (0022) and for a bulk load (npm run
-- bench). Run it while the organization records nothing. Renewal times are not
-- kept on the session, so its renewals (hits - 1) land in the cell of its
-- creation here.
CREATE OR REPLACE FUNCTION report_rebuild(p_org text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM report_traffic_rollups WHERE org_id = p_org;
  DELETE FROM report_traffic_deltas WHERE org_id = p_org;
  DELETE FROM report_touch_rollups WHERE org_id = p_org;
  DELETE FROM report_touch_deltas WHERE org_id = p_org;
  DELETE FROM report_calls WHERE org_id = p_org;
  DELETE FROM report_callers WHERE org_id = p_org;

  INSERT INTO report_traffic_deltas (grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number,
    sessions, sessions_shared, sessions_overflow, sessions_ambiguous, session_renewals)
  SELECT g.grain, s.org_id, report_quarter(s.created_at), s.campaign_id, s.source,
    CASE WHEN g.grain IN (1, 3) THEN s.medium ELSE '' END,
    CASE WHEN g.grain IN (1, 3) THEN s.utm_campaign ELSE '' END,
    CASE WHEN g.grain IN (1, 3) THEN s.landing_path ELSE '' END,
    CASE WHEN g.grain > 0 THEN '' ELSE '' END,
    CASE WHEN g.grain >= 2 THEN s.tracking_number ELSE '' END,
    count(*), count(*) FILTER (WHERE s.kind = 'shared'), count(*) FILTER (WHERE s.kind = 'overflow'),
    count(*) FILTER (WHERE s.ambiguous), sum(s.hits - 1)
  FROM (SELECT x.org_id, x.created_at, x.campaign_id, x.kind, x.ambiguous, x.hits, x.tracking_number,
          report_source(x.utm_source, x.gclid, x.gbraid, x.wbraid, x.fbclid, x.fbc, x.msclkid) AS source,
          coalesce(x.utm_medium, '') AS medium, coalesce(x.utm_campaign, '') AS utm_campaign,
          coalesce(report_path(x.landing_url), '') AS landing_path
          FROM dni_sessions x WHERE x.org_id = p_org) s
  CROSS JOIN (VALUES (0), (1), (3)) g(grain)
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10;

  INSERT INTO report_callers (org_id, caller, first_call_id, first_started_at)
  SELECT DISTINCT ON (c.from_number) c.org_id, c.from_number, c.id, c.started_at
    FROM calls c WHERE c.org_id = p_org ORDER BY c.from_number, c.started_at, c.id;

  INSERT INTO report_calls
  SELECT c.id, c.org_id, c.started_at, c.campaign_id,
    CASE WHEN s.id IS NULL THEN 'unattributed'
      ELSE report_source(s.utm_source, s.gclid, s.gbraid, s.wbraid, s.fbclid, s.fbc, s.msclkid) END,
    coalesce(s.utm_medium, ''), coalesce(s.utm_campaign, ''), coalesce(report_path(s.landing_url), ''),
    c.attribution, c.tracking_number, c.from_number, rc.first_call_id = c.id
  FROM calls c
  LEFT JOIN dni_sessions s ON s.id = c.dni_session_id
  JOIN report_callers rc ON rc.org_id = c.org_id AND rc.caller = c.from_number
  WHERE c.org_id = p_org;

  INSERT INTO report_traffic_deltas (grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number, calls, calls_with_session, calls_on_shared_number, calls_first_time, calls_answered, calls_missed, calls_under_30s, calls_30s_to_2m, calls_2m_to_10m, calls_over_10m, buyer_reports, buyer_corrections, buyer_success, buyer_rejected, buyer_reported_calls, buyer_report_seconds_sum)
  SELECT g.grain, f.org_id, report_quarter(f.started_at), f.campaign_id, f.source,
    CASE WHEN g.grain IN (1, 3) THEN f.medium ELSE '' END,
    CASE WHEN g.grain IN (1, 3) THEN f.utm_campaign ELSE '' END,
    CASE WHEN g.grain IN (1, 3) THEN f.landing_path ELSE '' END,
    CASE WHEN g.grain > 0 THEN f.attribution ELSE '' END,
    CASE WHEN g.grain >= 2 THEN f.tracking_number ELSE '' END,
    count(*), count(*) FILTER (WHERE c.dni_session_id IS NOT NULL), count(*) FILTER (WHERE c.ambiguous),
    count(*) FILTER (WHERE f.first_time),
    count(*) FILTER (WHERE report_call_outcome(c.status, c.duration_seconds) = 'answered'),
    count(*) FILTER (WHERE report_call_outcome(c.status, c.duration_seconds) = 'missed'),
    count(*) FILTER (WHERE report_call_band(c.status, c.duration_seconds) = 0),
    count(*) FILTER (WHERE report_call_band(c.status, c.duration_seconds) = 1),
    count(*) FILTER (WHERE report_call_band(c.status, c.duration_seconds) = 2),
    count(*) FILTER (WHERE report_call_band(c.status, c.duration_seconds) = 3),
    coalesce(sum(e.n), 0), coalesce(sum(e.n - 1), 0),
    count(*) FILTER (WHERE c.disposition = 'success'), count(*) FILTER (WHERE c.disposition = 'rejected'),
    count(e.n), coalesce(sum(floor(extract(epoch FROM e.first_at - c.started_at))::bigint), 0)
  FROM report_calls f
  JOIN calls c ON c.id = f.call_id
  LEFT JOIN (SELECT b.call_id, count(*) AS n, min(b.at) AS first_at FROM buyer_report_events b
              WHERE b.org_id = p_org GROUP BY b.call_id) e ON e.call_id = c.id
  CROSS JOIN (VALUES (0), (1), (3)) g(grain)
  WHERE f.org_id = p_org
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10;

  INSERT INTO report_touch_deltas (org_id, bucket, campaign_id, channel, purpose, outcome, state, reason, touches, placed, blocked, delivered, failed)
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
END
$$;
