-- The sessions dni_open_sessions opened and has not written yet, in three
-- statements: each number handed out or shared held by its session; the
-- live sessions of each shared number flagged ambiguous; then every session
-- (allocated, shared or overflow). The arguments are dni_open_sessions's own
-- (the batch's requests and their campaigns), then, per session, its
-- request's index, number, expiry and outcome; a number handed out or
-- shared appears once among them. The numbers are already locked by the
-- caller (FOR UPDATE), so this locks only sessions on numbers the caller
-- holds (dni_open_sessions's header: a number before any session on it).
-- Joins are nested loops of index lookups, one per pending session, whatever
-- the statistics: a merge or hash join would read a whole index or table.
CREATE OR REPLACE FUNCTION dni_write_sessions(
  p_orgs text[], p_visitors text[], p_nows timestamptz[], p_ids text[], p_attrs jsonb[],
  p_campaigns text[], p_i integer[], p_num text[], p_exp timestamptz[], p_kind text[]
) RETURNS void
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_mergejoin = off
SET enable_hashjoin = off
AS $$
BEGIN
  UPDATE tracking_numbers t
     SET held_by = p_ids[u.i],
         held_until = GREATEST(COALESCE(t.held_until, u.exp), u.exp),
         last_assigned_at = p_nows[u.i]
    FROM unnest(p_i, p_num, p_exp, p_kind) AS u(i, num, exp, kind)
   WHERE t.e164 = u.num AND u.kind IN ('allocated', 'shared');

  -- The sessions on a shared number still live when it was shared (those
  -- of its allocation), by number and expiry (dni_sessions_unflagged_idx):
  -- the number's expired unflagged sessions, thousands after weeks, are not
  -- read (migration 0031).
  UPDATE dni_sessions s SET ambiguous = true
    FROM unnest(p_i, p_num, p_kind) AS u(i, num, kind)
   WHERE u.kind = 'shared' AND s.tracking_number = u.num AND NOT s.ambiguous
     AND s.expires_at > p_nows[u.i];

  INSERT INTO dni_sessions (
    id, org_id, campaign_id, visitor_id, tracking_number, kind, ambiguous,
    created_at, expires_at, last_seen_at, hits,
    gclid, fbc, fbp, landing_url, fbclid, msclkid, gbraid, wbraid,
    utm_source, utm_medium, utm_campaign, utm_term, utm_content
  )
  SELECT p_ids[u.i], p_orgs[u.i], p_campaigns[u.i], p_visitors[u.i], u.num, u.kind, u.kind <> 'allocated',
         p_nows[u.i], u.exp, p_nows[u.i], 1,
         a->>'gclid', a->>'fbc', a->>'fbp', a->>'landing_url',
         a->>'fbclid', a->>'msclkid', a->>'gbraid', a->>'wbraid',
         a->>'utm_source', a->>'utm_medium', a->>'utm_campaign',
         a->>'utm_term', a->>'utm_content'
    FROM unnest(p_i, p_num, p_exp, p_kind) WITH ORDINALITY AS u(i, num, exp, kind, o)
    CROSS JOIN LATERAL (SELECT p_attrs[u.i] AS a) x
   ORDER BY u.o;
END
$$;
