-- The DNI batch with its report counters (docs/reporting.md, "Read model"):
-- dni_open_sessions, then one delta row per session opened or renewed, with
-- every key (grain 3; report_compact adds it to every grain), appended to
-- report_traffic_deltas in the same statement and transaction. No lock
-- another batch waits for, no index to update.
--
-- p_sources … p_paths are the requests' report keys, worked out by the server
-- (src/domain/reports/session-keys.ts; test/http/report-keys.test.ts holds them
-- to report_source and report_path). A new session counts in the cell of its
-- creation with its own request's keys; a renewal (outcome sticky) in the cell
-- of the renewal with the keys of the session it renews: for a session opened
-- earlier in this batch (invisible to this statement's snapshot), its opener's
-- request, found where the renewed id sits in p_ids (the ids this batch's
-- requests open); for an older session, its row. Sessions flagged ambiguous
-- later are counted by a trigger (report_on_session_flagged).
--
-- A function, not a statement the server sends: planning this statement cost
-- more than running it (on PGlite, the counters sent as a statement took 0.18
-- of the DNI batches' throughput, and 0.04 as this function: bench/README.md).
CREATE OR REPLACE FUNCTION dni_open_sessions_counted(
  p_orgs text[], p_codes text[], p_visitors text[], p_nows timestamptz[], p_ids text[], p_attrs jsonb[],
  p_sources text[], p_mediums text[], p_utm_campaigns text[], p_paths text[]
) RETURNS TABLE (
  ord integer, session_id text, tracking_number text, expires_at timestamptz, outcome text, campaign_id text
)
LANGUAGE plpgsql
-- dni_open_sessions' planner settings, for the reason its header gives: a SET
-- clause holds for one call, and this function's own statement is planned
-- in this one.
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_mergejoin = off
SET enable_hashjoin = off
AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH b AS MATERIALIZED (
    SELECT * FROM dni_open_sessions(p_orgs, p_codes, p_visitors, p_nows, p_ids, p_attrs)
  ),
  -- keyed: the request whose keys the row counts with; null for a renewal of an older session.
  r AS (
    SELECT b.ord, b.outcome, b.campaign_id, b.tracking_number, b.session_id,
      CASE WHEN b.outcome <> 'sticky' THEN b.ord ELSE array_position(p_ids, b.session_id) END AS keyed
      FROM b
     WHERE b.outcome IN ('allocated', 'shared', 'overflow', 'sticky')
  ),
  d AS (
    INSERT INTO report_traffic_deltas (grain, org_id, bucket, campaign_id, source, medium,
      utm_campaign, landing_path, attribution, tracking_number,
      sessions, sessions_shared, sessions_overflow, sessions_ambiguous, session_renewals)
    SELECT 3, p_orgs[r.ord], report_quarter(p_nows[r.ord]), r.campaign_id,
      CASE WHEN r.keyed IS NOT NULL THEN report_source_alias(lower(p_sources[r.keyed]))
        ELSE report_source(s.utm_source, s.gclid, s.gbraid, s.wbraid, s.fbclid, s.fbc, s.msclkid) END,
      CASE WHEN r.keyed IS NOT NULL THEN p_mediums[r.keyed] ELSE coalesce(s.utm_medium, '') END,
      CASE WHEN r.keyed IS NOT NULL THEN p_utm_campaigns[r.keyed] ELSE coalesce(s.utm_campaign, '') END,
      CASE WHEN r.keyed IS NOT NULL THEN p_paths[r.keyed] ELSE coalesce(report_path(s.landing_url), '') END,
      '', r.tracking_number,
      -- A counter the row does not move stays null (migration 0027: readers sum, the fold coalesces).
      CASE WHEN r.outcome <> 'sticky' THEN 1 END,
      CASE WHEN r.outcome = 'shared' THEN 1 END,
      CASE WHEN r.outcome = 'overflow' THEN 1 END,
      CASE WHEN r.outcome IN ('shared', 'overflow') THEN 1 END,
      CASE WHEN r.outcome = 'sticky' THEN 1 END
      FROM r
      -- By key, for an older session's renewal alone (LATERAL … LIMIT: never a join over the table).
      LEFT JOIN LATERAL (
        SELECT s1.utm_source, s1.gclid, s1.gbraid, s1.wbraid, s1.fbclid, s1.fbc, s1.msclkid,
               s1.utm_medium, s1.utm_campaign, s1.landing_url
          FROM dni_sessions s1
         WHERE r.keyed IS NULL AND s1.id = r.session_id
         LIMIT 1) s ON true
  )
  SELECT b.ord, b.session_id, b.tracking_number, b.expires_at, b.outcome, b.campaign_id FROM b;
END
$$;
