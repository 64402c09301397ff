-- DNI allocation: many requests in one statement, one row back per request,
-- in order (ord is the 1-based index into the arrays). Each request sees the
-- ones before it, so two requests of one visitor in a batch get one session.
-- Each pool number has a dense slot and each campaign a clock hand (a
-- sequence, dni_clock_name): a new visitor takes the slot under the hand if it
-- is free, else the next ones (migrations/0017_dni_clock.sql says why).
--
-- Lock order, the same for a batch of one and of sixty-four, so concurrent
-- batches cannot deadlock (the faults issue's rule: a number before any
-- session on it):
--   1. every visitor of the batch (advisory locks, in key order);
--   2. the numbers of their live sessions (row locks, in number order);
--   3. then, request by request, a number to hand out: only with SKIP LOCKED,
--      except when sharing finds every number locked by others and this
--      transaction holds none of its own (then it waits, holding no number);
--   4. sessions on a number, only while holding that number.
--
-- outcome per row: allocated | sticky | overflow | shared, or
-- campaign_not_found | no_numbers (the request's own failure, not the batch's).
--
-- Writes in bulk (issue 23): the loop decides each request and keeps what
-- it opens in v_pi … v_pkind; dni_write_sessions writes them with the
-- batch's others (one UPDATE of the free numbers handed out, one INSERT of
-- the sessions): a statement per row was about a quarter of the batch. A
-- shared number too, with the flag on its live sessions (a third of a
-- share's cost: bench/README.md, eighth session). What reads the pending ones
-- sees them: the hand and a share skip a number already handed out or shared
-- (t.e164 <> ALL (v_pnum)); they are written first before a visitor seen
-- earlier in the batch is looked up, before a share finds nothing but
-- pending numbers under the hand, and, while one is an allocation, when no
-- free number is found, before the pool is marked full, an overflow or a
-- share (which flags the sessions on its number when written; shared and
-- overflow sessions are flagged already).
--
-- Plans that do not depend on statistics (issue 23): a database whose pool was
-- just loaded, with autovacuum off or behind, has no statistics on
-- tracking_numbers and dni_sessions, and the function runs with
-- plan_cache_mode = force_generic_plan: the plan each statement gets on a
-- batch connection's first call is kept for as long as the connection lives.
--   * step 2 looks each visitor up through dni_sessions_visitor_idx (a
--     LATERAL subquery with LIMIT, which the planner cannot flatten into a
--     join over the table);
--   * the function runs with enable_seqscan and enable_bitmapscan off: every
--     statement in it is meant to be a plain index lookup, so a plan made on
--     a table that looked empty (never analysed, or vacuumed while empty)
--     cannot pick a sequential scan and keep it, nor AND a bitmap of the whole
--     partial slot index (every pool number: role = 'pool' matches its
--     predicate) with the primary key's, as step 2's generic plan did: 22 ms
--     a batch on a 100,000-number pool, half the database's time before.
-- test/http/dni-plans.test.ts reads the plans with auto_explain on a fresh
-- 100,000-number pool before any ANALYZE.
CREATE OR REPLACE FUNCTION dni_open_sessions(
  p_orgs text[], p_codes text[], p_visitors text[], p_nows timestamptz[], p_ids text[], p_attrs jsonb[]
) RETURNS TABLE (
  ord integer, session_id text, tracking_number text, expires_at timestamptz, outcome text, campaign_id text
)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
-- Every plan below is an index lookup by design; no sequential scan is ever
-- wanted, whatever statistics the planner has or lacks (see the header).
SET enable_seqscan = off
SET enable_bitmapscan = off
AS $$
DECLARE
  n integer := coalesce(array_length(p_visitors, 1), 0);
  v_campaigns text[];
  v_ttls integer[];
  v_sizes integer[];
  v_full timestamptz[];
  i integer;
  k integer;
  v_campaign text;
  v_now timestamptz;
  v_exp timestamptz;
  v_size integer;
  v_slot integer;
  v_clock text;
  v_id text;
  v_num text;
  v_outcome text;
  v_min timestamptz;
  v_mine text[] := '{}';
  v_over text;
  v_over_of text;
  -- Sessions not written yet (see "Writes in bulk" above): each one's
  -- request, number, expiry, campaign and visitor as one key, and outcome.
  v_pi integer[] := '{}';
  v_pnum text[] := '{}';
  v_pexp timestamptz[] := '{}';
  v_pkey text[] := '{}';
  v_pkind text[] := '{}';
BEGIN
  -- Each request's campaign (null: not one of that organization's).
  SELECT array_agg(c.id ORDER BY r.o), array_agg(c.session_ttl_seconds ORDER BY r.o),
         array_agg(c.pool_size ORDER BY r.o), array_agg(c.pool_full_until ORDER BY r.o)
    INTO v_campaigns, v_ttls, v_sizes, v_full
    FROM unnest(p_orgs, p_codes) WITH ORDINALITY AS r(org, code, o)
    -- LIMIT keeps this a lookup in campaigns_org_code_key per request (no hash of every campaign).
    LEFT JOIN LATERAL (SELECT c1.id, c1.session_ttl_seconds, c1.pool_size, c1.pool_full_until
                         FROM campaigns c1 WHERE c1.org_id = r.org AND c1.code = r.code
                        LIMIT 1) c ON true;

  -- 1. Visitors, in key order.
  PERFORM pg_advisory_xact_lock(x.key)
     FROM (SELECT DISTINCT hashtextextended(v.c || chr(31) || v.visitor, 0) AS key
             FROM unnest(v_campaigns, p_visitors) AS v(c, visitor)
            WHERE v.c IS NOT NULL
            ORDER BY 1) x;

  -- 2. The numbers of their live sessions, in number order.
  -- One lookup in dni_sessions_visitor_live_idx per request (LATERAL … LIMIT
  -- cannot become a join over the whole table), then the numbers by key:
  -- `role <> 'overflow'` (not `role = 'pool'`) so that the partial slot index
  -- can never be chosen to read the whole pool.
  PERFORM 1 FROM tracking_numbers t
    WHERE t.e164 = ANY (ARRAY(
          SELECT s.tracking_number
            FROM unnest(v_campaigns, p_visitors, p_nows) AS v(c, visitor, at)
            CROSS JOIN LATERAL (
                  SELECT s1.tracking_number FROM dni_sessions s1
                   WHERE s1.campaign_id = v.c AND s1.visitor_id = v.visitor
                     AND s1.expires_at > v.at
                   ORDER BY s1.expires_at DESC
                   LIMIT 1) s
           WHERE v.c IS NOT NULL))
      AND t.role <> 'overflow'
    ORDER BY t.e164
    FOR UPDATE OF t;

  FOR i IN 1 .. n LOOP
    ord := i;
    v_campaign := v_campaigns[i];
    IF v_campaign IS NULL THEN
      session_id := NULL; tracking_number := NULL; expires_at := NULL; campaign_id := NULL;
      outcome := 'campaign_not_found';
      RETURN NEXT;
      CONTINUE;
    END IF;
    v_now := p_nows[i];
    v_exp := v_now + make_interval(secs => v_ttls[i]);
    v_size := v_sizes[i];
    campaign_id := v_campaign;

    -- A visitor seen earlier in this batch: what it was given is written first.
    IF v_campaign || chr(31) || p_visitors[i] = ANY (v_pkey) THEN
      PERFORM dni_write_sessions(p_orgs, p_visitors, p_nows, p_ids, p_attrs, v_campaigns, v_pi, v_pnum, v_pexp, v_pkind);
      v_pi := '{}'; v_pnum := '{}'; v_pexp := '{}'; v_pkey := '{}'; v_pkind := '{}';
    END IF;

    SELECT s.id, s.tracking_number INTO v_id, v_num FROM dni_sessions s
     WHERE s.campaign_id = v_campaign AND s.visitor_id = p_visitors[i] AND s.expires_at > v_now
     ORDER BY s.expires_at DESC
     LIMIT 1;
    IF FOUND THEN
      UPDATE tracking_numbers t SET held_until = GREATEST(t.held_until, v_exp)
       WHERE t.e164 = v_num AND t.campaign_id = v_campaign AND t.role = 'pool';
      UPDATE dni_sessions s
         SET expires_at = v_exp, last_seen_at = v_now, hits = s.hits + 1
       WHERE s.id = v_id;
      session_id := v_id; tracking_number := v_num; expires_at := v_exp; outcome := 'sticky';
      RETURN NEXT;
      CONTINUE;
    END IF;

    v_num := NULL;
    v_clock := dni_clock_name(v_campaign);
    IF v_size > 0 AND (v_full[i] IS NULL OR v_full[i] <= v_now) THEN
      -- The hand: the slots under it, a few at a time.
      FOR k IN 1 .. LEAST(v_size, 8) LOOP
        v_slot := nextval(v_clock::regclass) % v_size;
        SELECT t.e164 INTO v_num FROM tracking_numbers t
         WHERE t.campaign_id = v_campaign AND t.role = 'pool' AND t.slot = v_slot
           AND (t.held_until IS NULL OR t.held_until <= v_now) AND t.e164 <> ALL (v_pnum)
         FOR UPDATE SKIP LOCKED;
        EXIT WHEN FOUND;
      END LOOP;
      IF v_num IS NULL AND v_size > 8 THEN
        -- A crowded pool: the first free slot after the hand, wrapping round.
        SELECT t.e164 INTO v_num FROM tracking_numbers t
         WHERE t.campaign_id = v_campaign AND t.role = 'pool' AND t.slot > v_slot
           AND (t.held_until IS NULL OR t.held_until <= v_now) AND t.e164 <> ALL (v_pnum)
         ORDER BY t.slot LIMIT 1
         FOR UPDATE SKIP LOCKED;
        IF NOT FOUND THEN
          SELECT t.e164 INTO v_num FROM tracking_numbers t
           WHERE t.campaign_id = v_campaign AND t.role = 'pool' AND t.slot <= v_slot
             AND (t.held_until IS NULL OR t.held_until <= v_now) AND t.e164 <> ALL (v_pnum)
           ORDER BY t.slot LIMIT 1
           FOR UPDATE SKIP LOCKED;
        END IF;
      END IF;
    END IF;

    IF v_num IS NOT NULL THEN
      -- A free number (the common case): written with the others, later.
      v_pi := v_pi || i; v_pnum := v_pnum || v_num; v_pexp := v_pexp || v_exp;
      v_pkey := v_pkey || (v_campaign || chr(31) || p_visitors[i]);
      v_pkind := v_pkind || 'allocated'::text;
      v_mine := v_mine || v_num;
      session_id := p_ids[i]; tracking_number := v_num; expires_at := v_exp; outcome := 'allocated';
      RETURN NEXT;
      CONTINUE;
    END IF;

    -- No free number: what follows reads with every earlier allocation in
    -- place (the pool's holds; a shared number's sessions, which it flags;
    -- the pending shared and overflow sessions are flagged already).
    IF 'allocated' = ANY (v_pkind) THEN
      PERFORM dni_write_sessions(p_orgs, p_visitors, p_nows, p_ids, p_attrs, v_campaigns, v_pi, v_pnum, v_pexp, v_pkind);
      v_pi := '{}'; v_pnum := '{}'; v_pexp := '{}'; v_pkey := '{}'; v_pkind := '{}';
    END IF;
    IF v_size > 0 AND (v_full[i] IS NULL OR v_full[i] <= v_now) THEN
      -- The pool was searched and nothing was free: remember until when, for
      -- this batch and (if the campaign row is not busy) for the next ones.
      SELECT min(t.held_until) INTO v_min FROM tracking_numbers t
       WHERE t.campaign_id = v_campaign AND t.role = 'pool' AND t.slot >= 0;
      IF v_min > v_now THEN
        FOR k IN i .. n LOOP
          IF v_campaigns[k] = v_campaign THEN v_full[k] := v_min; END IF;
        END LOOP;
        UPDATE campaigns c SET pool_full_until = v_min
         WHERE c.id = (SELECT c2.id FROM campaigns c2 WHERE c2.id = v_campaign
                          FOR NO KEY UPDATE SKIP LOCKED);
      END IF;
    END IF;
    -- The campaign's overflow number, looked up once per run of requests
    -- of one campaign (a batch is mostly one campaign's).
    IF v_over_of IS DISTINCT FROM v_campaign THEN
      v_over := NULL;
      SELECT t.e164 INTO v_over FROM tracking_numbers t
       WHERE t.campaign_id = v_campaign AND t.role = 'overflow'
       LIMIT 1;
      v_over_of := v_campaign;
    END IF;
    v_num := v_over;
    IF v_num IS NOT NULL THEN
      v_outcome := 'overflow';
    ELSIF v_size = 0 THEN
      session_id := NULL; tracking_number := NULL; expires_at := NULL;
      outcome := 'no_numbers';
      RETURN NEXT;
      CONTINUE;
    ELSE
      -- Exhausted, no overflow: share the number assigned longest ago among
      -- the 16 under the hand. Not simply the one under it: a crowded search
      -- takes free numbers beyond the hand without moving it, so the numbers
      -- just ahead of it may have been handed out a moment ago, to visitors
      -- still on the page (the simulator measured 1-3 points of accuracy
      -- lost that way on tight pools; docs/pool-sizing.md).
      v_slot := nextval(v_clock::regclass) % v_size;
      -- The 16 slots under the hand, read by the slot index in the order to
      -- share them; LockRows locks the first that no other transaction holds
      -- and the LIMIT stops there. One statement: reading the 16, then
      -- locking one by number in a statement of its own, made a share cost
      -- 102 µs of the database's CPU against 84 (bench/README.md, eighth
      -- session). A range, not `slot = ANY (…)`: without statistics the
      -- planner kept that list out of the index condition and read the
      -- campaign's whole pool (test/http/dni-plans.test.ts).
      -- A number shared earlier in this batch is not written yet: it is
      -- left out here, as the one assigned last it would sort last anyway;
      -- when nothing else is left, the pending ones are written and the 16
      -- read again.
      FOR k IN 1 .. 2 LOOP
        IF v_slot + 15 < v_size THEN
          SELECT t.e164 INTO v_num FROM tracking_numbers t
           WHERE t.campaign_id = v_campaign AND t.role = 'pool'
             AND t.slot BETWEEN v_slot AND v_slot + 15 AND t.e164 <> ALL (v_pnum)
           ORDER BY t.last_assigned_at NULLS FIRST, t.slot
           LIMIT 1
           FOR UPDATE SKIP LOCKED;
        ELSE
          -- Wrapping round the pool's end (or a pool of 16 or fewer): two
          -- ranges, each read by the slot index (one range OR the other was
          -- planned as a read of the whole pool filtered row by row), then
          -- the numbers locked by key.
          SELECT t.e164 INTO v_num FROM tracking_numbers t
           WHERE t.e164 = ANY (ARRAY(
                   SELECT t1.e164 FROM tracking_numbers t1
                    WHERE t1.campaign_id = v_campaign AND t1.role = 'pool'
                      AND t1.slot BETWEEN v_slot AND v_slot + 15
                   UNION ALL
                   SELECT t2.e164 FROM tracking_numbers t2
                    WHERE t2.campaign_id = v_campaign AND t2.role = 'pool'
                      AND t2.slot BETWEEN 0 AND v_slot + 15 - v_size))
             AND t.e164 <> ALL (v_pnum)
           ORDER BY t.last_assigned_at NULLS FIRST, t.slot
           LIMIT 1
           FOR UPDATE SKIP LOCKED;
        END IF;
        EXIT WHEN v_num IS NOT NULL OR NOT ('shared' = ANY (v_pkind));
        PERFORM dni_write_sessions(p_orgs, p_visitors, p_nows, p_ids, p_attrs, v_campaigns, v_pi, v_pnum, v_pexp, v_pkind);
        v_pi := '{}'; v_pnum := '{}'; v_pexp := '{}'; v_pkey := '{}'; v_pkind := '{}';
      END LOOP;
      IF v_num IS NULL THEN
        -- Every number under the hand is locked. One this transaction
        -- already holds needs no wait; holding none, waiting is safe.
        SELECT t.e164 INTO v_num FROM tracking_numbers t
         WHERE t.campaign_id = v_campaign AND t.role = 'pool' AND t.e164 = ANY (v_mine)
         LIMIT 1;
        IF NOT FOUND THEN
          SELECT t.e164 INTO v_num FROM tracking_numbers t
           WHERE t.campaign_id = v_campaign AND t.role = 'pool' AND t.slot = v_slot
           FOR UPDATE;
        END IF;
      END IF;
      -- The number held by this session and its live sessions flagged
      -- ambiguous are written with the session (dni_write_sessions).
      v_outcome := 'shared';
      v_mine := v_mine || v_num;
    END IF;

    -- The session, with the batch's others, later.
    v_pi := v_pi || i; v_pnum := v_pnum || v_num; v_pexp := v_pexp || v_exp;
    v_pkey := v_pkey || (v_campaign || chr(31) || p_visitors[i]);
    v_pkind := v_pkind || v_outcome;
    session_id := p_ids[i]; tracking_number := v_num; expires_at := v_exp; outcome := v_outcome;
    RETURN NEXT;
  END LOOP;
  IF v_pi <> '{}' THEN
    PERFORM dni_write_sessions(p_orgs, p_visitors, p_nows, p_ids, p_attrs, v_campaigns, v_pi, v_pnum, v_pexp, v_pkind);
  END IF;
END
$$;
