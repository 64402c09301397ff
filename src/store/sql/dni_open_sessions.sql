-- DNI allocation: a batch of requests in one statement, one row back per
-- request, in order (ord is the 1-based index into the arrays). Each request
-- sees the ones before it, so two requests of one visitor in a batch get one
-- session.
--
-- Per request, in order:
--   campaign_not_found  the code is not one of that organization's campaigns;
--   sticky              the visitor has a live session: it is renewed;
--   allocated           a free number (dni_pick_free_number);
--   overflow            none free: the campaign's overflow number;
--   no_numbers          none free, no overflow number and an empty pool;
--   shared              none free, no overflow number: a number in use
--                       (dni_pick_shared_number), whose live sessions are
--                       flagged ambiguous with the new one.
-- A failure is that request's alone, never the batch's.
--
-- Lock order, the same for a batch of one and of sixty-four, so concurrent
-- batches cannot deadlock; a number is always locked before any session on it:
--   1. every visitor of the batch (advisory locks, in key order);
--   2. the numbers of their live sessions (row locks, in number order);
--   3. then, request by request, a number to hand out: only with SKIP LOCKED,
--      except when sharing finds every number locked by others and this
--      transaction holds none of its own (then it waits, holding no number);
--   4. sessions on a number, only while holding that number.
--
-- Writes in bulk: the loop decides each request and keeps the sessions it
-- opens in v_pending; dni_write_sessions writes them together (a statement
-- per session was a quarter of a batch's cost: bench/README.md). What reads
-- the table must see them, so:
--   * every lookup for a number skips the pending sessions' numbers (the
--     table does not show them taken yet);
--   * the pending sessions are written first when a visitor with one comes
--     again; when no free number is found while an allocation is pending
--     (the pool's holds and the overflow and share below read it); and when
--     a share finds nothing but pending numbers (the 16 are read again with
--     them in place, so they sort by when they were assigned).
--
-- Planner settings, for every statement of the DNI batch (this function's,
-- those of the functions it calls, and dni_open_sessions_counted's, which
-- repeats the SET clauses below because a SET clause holds for one call):
--   * plan_cache_mode = force_generic_plan: each statement is planned once
--     per connection and the plan kept for as long as the connection lives;
--     planning per call cost more than running the statement.
--   * enable_seqscan, enable_bitmapscan, enable_mergejoin, enable_hashjoin
--     off: every statement here is meant to be index lookups, joined by
--     nested loops. A database whose pool was just loaded, with autovacuum
--     off or behind, has no statistics (or stale ones) on tracking_numbers
--     and dni_sessions; a plan made on a table that looked empty must not
--     pick a sequential scan and keep it, nor AND a bitmap of the whole
--     partial slot index (every pool number matches its predicate) with the
--     primary key's (22 ms a batch on a 100,000-number pool), nor read a
--     whole index or table into a merge or hash join.
-- test/http/dni-plans.test.ts reads every plan with auto_explain on a fresh
-- 100,000-number pool before any ANALYZE.
CREATE OR REPLACE FUNCTION dni_open_sessions(
  p_orgs text[], p_codes text[], p_visitors text[], p_nows timestamptz[], p_ids text[], p_attrs jsonb[]
) RETURNS TABLE (
  ord integer, session_id text, tracking_number text, expires_at timestamptz, outcome text, campaign_id text
)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
SET enable_seqscan = off
SET enable_bitmapscan = off
SET enable_mergejoin = off
SET enable_hashjoin = off
AS $$
DECLARE
  n integer := coalesce(array_length(p_visitors, 1), 0);
  -- Per request: its campaign (null: not one of that organization's), the
  -- campaign's session TTL, pool size and full-until, and whether an
  -- earlier request of the batch has the same campaign and visitor.
  v_campaigns text[];
  v_ttls integer[];
  v_sizes integer[];
  v_full timestamptz[];
  v_repeats boolean[];
  i integer;
  v_campaign text;
  v_now timestamptz;
  v_exp timestamptz;
  v_size integer;
  v_searched boolean;
  v_slot integer;
  v_id text;
  v_num text;
  v_outcome text;
  v_min timestamptz;
  v_over text;
  v_over_of text;
  -- The sessions opened and not written yet, in request order.
  v_pending dni_pending_session[] := '{}';
  -- The number of each session the batch opened, in order: the last
  -- cardinality(v_pending) of them are the pending sessions' numbers.
  v_given text[] := '{}';
  v_unwritten text[];
  -- The last request given a free number: an allocation is pending while it
  -- is at or after the first pending session's.
  v_last_allocated integer := 0;
BEGIN
  SELECT array_agg(c.id ORDER BY r.o), array_agg(c.session_ttl_seconds ORDER BY r.o),
         array_agg(c.pool_size ORDER BY r.o), array_agg(c.pool_full_until ORDER BY r.o)
    INTO v_campaigns, v_ttls, v_sizes, v_full
    FROM unnest(p_orgs, p_codes) WITH ORDINALITY AS r(org, code, o)
    -- LIMIT keeps this a lookup in campaigns_org_code_key per request (no hash of every campaign).
    LEFT JOIN LATERAL (SELECT c1.id, c1.session_ttl_seconds, c1.pool_size, c1.pool_full_until
                         FROM campaigns c1 WHERE c1.org_id = r.org AND c1.code = r.code
                        LIMIT 1) c ON true;

  SELECT array_agg(x.repeat ORDER BY x.o) INTO v_repeats
    FROM (SELECT v.o, row_number() OVER (PARTITION BY v.c, v.visitor ORDER BY v.o) > 1 AS repeat
            FROM unnest(v_campaigns, p_visitors) WITH ORDINALITY AS v(c, visitor, o)) x;

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

    -- A visitor seen earlier in this batch: what it was given is written
    -- first, so that the lookup below finds it. (Two IFs: one condition with
    -- the subquery would run as a query for every request.)
    IF v_repeats[i] THEN
      IF EXISTS (SELECT 1 FROM unnest(v_pending) p
                  WHERE p.campaign_id = v_campaign AND p.visitor_id = p_visitors[i]) THEN
        PERFORM dni_write_sessions(v_pending);
        v_pending := '{}';
      END IF;
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

    -- A pool remembered as full (pool_full_until) is not searched until then.
    v_searched := v_size > 0 AND (v_full[i] IS NULL OR v_full[i] <= v_now);
    v_unwritten := v_given[cardinality(v_given) - cardinality(v_pending) + 1 :];
    v_num := NULL;
    IF v_searched THEN
      v_num := dni_pick_free_number(v_campaign, v_size, v_now, v_unwritten);
    END IF;

    IF v_num IS NOT NULL THEN
      v_outcome := 'allocated';
      v_last_allocated := i;
    ELSE
      IF v_last_allocated >= (v_pending[1]).ord THEN
        PERFORM dni_write_sessions(v_pending);
        v_pending := '{}';
      END IF;
      IF v_searched THEN
        -- Nothing was free: remember until when, for this batch and (if the
        -- campaign row is not busy) for the next ones.
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

      IF v_over IS NOT NULL THEN
        v_num := v_over;
        v_outcome := 'overflow';
      ELSIF v_size = 0 THEN
        session_id := NULL; tracking_number := NULL; expires_at := NULL;
        outcome := 'no_numbers';
        RETURN NEXT;
        CONTINUE;
      ELSE
        v_slot := nextval(dni_clock_name(v_campaign)::regclass) % v_size;
        v_num := dni_pick_shared_number(v_campaign, v_size, v_slot, v_unwritten);
        IF v_num IS NULL AND v_pending <> '{}' THEN
          -- Only pending numbers are left under the hand: written, they sort
          -- by when they were assigned like any other.
          PERFORM dni_write_sessions(v_pending);
          v_pending := '{}';
          v_num := dni_pick_shared_number(v_campaign, v_size, v_slot, '{}');
        END IF;
        IF v_num IS NULL THEN
          -- Every number under the hand is locked by others. One this
          -- transaction already holds needs no wait; holding none, waiting
          -- is safe (the lock order's step 3).
          SELECT t.e164 INTO v_num FROM tracking_numbers t
           WHERE t.campaign_id = v_campaign AND t.role = 'pool' AND t.e164 = ANY (v_given)
           LIMIT 1;
          IF NOT FOUND THEN
            SELECT t.e164 INTO v_num FROM tracking_numbers t
             WHERE t.campaign_id = v_campaign AND t.role = 'pool' AND t.slot = v_slot
             FOR UPDATE;
          END IF;
        END IF;
        v_outcome := 'shared';
      END IF;
    END IF;

    v_pending := v_pending || ROW(i, p_ids[i], p_orgs[i], v_campaign, p_visitors[i], v_num,
                                  v_outcome, v_now, v_exp, p_attrs[i])::dni_pending_session;
    v_given := v_given || v_num;
    session_id := p_ids[i]; tracking_number := v_num; expires_at := v_exp; outcome := v_outcome;
    RETURN NEXT;
  END LOOP;
  IF v_pending <> '{}' THEN
    PERFORM dni_write_sessions(v_pending);
  END IF;
END
$$;
