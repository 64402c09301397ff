-- dni_open_session, same behaviour, one lock order. Before, a returning
-- visitor locked its session and then its number while a request sharing an
-- exhausted pool locked the number and then the sessions on it: deadlock
-- (40P01). Now every path locks a number before any session on it.
-- No row back: the campaign is not one of this organization's.
CREATE OR REPLACE FUNCTION dni_open_session(
  p_org text, p_code text, p_visitor text, p_now timestamptz, p_new_id text, p_attrs jsonb
) RETURNS TABLE (
  session_id text, tracking_number text, expires_at timestamptz, outcome text, campaign_id text
)
LANGUAGE plpgsql AS $$
DECLARE
  v_campaign text;
  v_ttl integer;
  v_exp timestamptz;
  v_id text;
  v_num text;
  v_outcome text;
BEGIN
  SELECT c.id, c.session_ttl_seconds INTO v_campaign, v_ttl
    FROM campaigns c WHERE c.org_id = p_org AND c.code = p_code;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  v_exp := p_now + make_interval(secs => v_ttl);

  -- One visitor, one live session: serialise this visitor's requests only.
  PERFORM pg_advisory_xact_lock(hashtextextended(v_campaign || chr(31) || p_visitor, 0));

  -- Read without locking (the visitor lock keeps this visitor's session
  -- still), then lock the number before the session: the order the sharing
  -- path below takes, so the two can never wait on each other.
  SELECT s.id, s.tracking_number INTO v_id, v_num FROM dni_sessions s
   WHERE s.campaign_id = v_campaign AND s.visitor_id = p_visitor AND s.expires_at > p_now
   ORDER BY s.expires_at DESC
   LIMIT 1;
  IF FOUND THEN
    UPDATE tracking_numbers n SET held_until = GREATEST(n.held_until, v_exp)
     WHERE n.e164 = v_num AND n.campaign_id = v_campaign AND n.role = 'pool';
    UPDATE dni_sessions s
       SET expires_at = v_exp, last_seen_at = p_now, hits = s.hits + 1
     WHERE s.id = v_id;
    RETURN QUERY SELECT v_id, v_num, v_exp, 'sticky'::text, v_campaign;
    RETURN;
  END IF;

  -- The free number released longest ago; SKIP LOCKED lets concurrent
  -- visitors take different numbers instead of queueing on one.
  SELECT n.e164 INTO v_num FROM tracking_numbers n
   WHERE n.campaign_id = v_campaign AND n.role = 'pool'
     AND (n.held_until IS NULL OR n.held_until <= p_now)
   ORDER BY n.held_until ASC NULLS FIRST, n.e164
   LIMIT 1 FOR UPDATE SKIP LOCKED;
  IF FOUND THEN
    v_outcome := 'allocated';
  ELSE
    SELECT n.e164 INTO v_num FROM tracking_numbers n
     WHERE n.campaign_id = v_campaign AND n.role = 'overflow'
     LIMIT 1;
    IF FOUND THEN
      v_outcome := 'overflow';
    ELSE
      -- Exhausted, no overflow: share the least recently assigned number.
      SELECT n.e164 INTO v_num FROM tracking_numbers n
       WHERE n.campaign_id = v_campaign AND n.role = 'pool'
       ORDER BY n.last_assigned_at ASC NULLS FIRST, n.e164
       LIMIT 1 FOR UPDATE SKIP LOCKED;
      IF NOT FOUND THEN
        SELECT n.e164 INTO v_num FROM tracking_numbers n
         WHERE n.campaign_id = v_campaign AND n.role = 'pool'
         ORDER BY n.last_assigned_at ASC NULLS FIRST, n.e164
         LIMIT 1 FOR UPDATE;
      END IF;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'campaign % has no tracking numbers', v_campaign USING ERRCODE = 'P0002';
      END IF;
      v_outcome := 'shared';
      UPDATE dni_sessions s SET ambiguous = true
       WHERE s.tracking_number = v_num AND s.expires_at > p_now AND NOT s.ambiguous;
    END IF;
  END IF;

  IF v_outcome <> 'overflow' THEN
    UPDATE tracking_numbers n
       SET held_by = p_new_id,
           held_until = GREATEST(COALESCE(n.held_until, v_exp), v_exp),
           last_assigned_at = p_now
     WHERE n.e164 = v_num;
  END IF;

  INSERT INTO dni_sessions (
    id, org_id, campaign_id, visitor_id, tracking_number, kind, ambiguous,
    created_at, expires_at, last_seen_at, hits,
    gclid, fbc, fbp, landing_url, fbclid, msclkid, gbraid, wbraid,
    utm_source, utm_medium, utm_campaign, utm_term, utm_content
  ) VALUES (
    p_new_id, p_org, v_campaign, p_visitor, v_num, v_outcome, v_outcome <> 'allocated',
    p_now, v_exp, p_now, 1,
    p_attrs->>'gclid', p_attrs->>'fbc', p_attrs->>'fbp', p_attrs->>'landing_url',
    p_attrs->>'fbclid', p_attrs->>'msclkid', p_attrs->>'gbraid', p_attrs->>'wbraid',
    p_attrs->>'utm_source', p_attrs->>'utm_medium', p_attrs->>'utm_campaign',
    p_attrs->>'utm_term', p_attrs->>'utm_content'
  );
  RETURN QUERY SELECT p_new_id, v_num, v_exp, v_outcome, v_campaign;
END
$$;
