-- Writes the sessions dni_open_sessions decided and has not written yet, in
-- three statements whatever their number:
--   1. each number handed out or shared: held by its session until it
--      expires, and assigned now;
--   2. the live sessions of each shared number: flagged ambiguous;
--   3. every session (allocated, shared or overflow), in request order.
-- A number handed out or shared appears once among them.
--
-- Locks: the numbers are locked already (dni_open_sessions took them FOR
-- UPDATE), so this locks only sessions on numbers its caller holds, which is
-- the lock order's rule (dni_open_sessions' header).
--
-- Plans: it runs inside dni_open_sessions and under its planner settings
-- (that file says which and why). Each join is a nested loop of index
-- lookups, one per pending session: a merge or hash join would read a whole
-- index or table.
CREATE OR REPLACE FUNCTION dni_write_sessions(p_sessions dni_pending_session[]) RETURNS void
LANGUAGE plpgsql
AS $$
BEGIN
  UPDATE tracking_numbers t
     SET held_by = u.id,
         held_until = GREATEST(COALESCE(t.held_until, u.expires_at), u.expires_at),
         last_assigned_at = u.opened_at
    FROM unnest(p_sessions) AS u
   WHERE t.e164 = u.num AND u.kind IN ('allocated', 'shared');

  -- The sessions on a shared number still live when it was shared (those
  -- of its allocation), by number and expiry (dni_sessions_unflagged_idx):
  -- the number's expired unflagged sessions, thousands after weeks, are not
  -- read.
  UPDATE dni_sessions s SET ambiguous = true
    FROM unnest(p_sessions) AS u
   WHERE u.kind = 'shared' AND s.tracking_number = u.num AND NOT s.ambiguous
     AND s.expires_at > u.opened_at;

  INSERT INTO dni_sessions (
    id, org_id, campaign_id, visitor_id, tracking_number, kind, ambiguous,
    created_at, expires_at, last_seen_at, hits,
    gclid, fbc, fbp, landing_url, fbclid, msclkid, gbraid, wbraid,
    utm_source, utm_medium, utm_campaign, utm_term, utm_content
  )
  SELECT u.id, u.org_id, u.campaign_id, u.visitor_id, u.num, u.kind, u.kind <> 'allocated',
         u.opened_at, u.expires_at, u.opened_at, 1,
         u.attrs->>'gclid', u.attrs->>'fbc', u.attrs->>'fbp', u.attrs->>'landing_url',
         u.attrs->>'fbclid', u.attrs->>'msclkid', u.attrs->>'gbraid', u.attrs->>'wbraid',
         u.attrs->>'utm_source', u.attrs->>'utm_medium', u.attrs->>'utm_campaign',
         u.attrs->>'utm_term', u.attrs->>'utm_content'
    FROM unnest(p_sessions) AS u
   ORDER BY u.ord;
END
$$;
