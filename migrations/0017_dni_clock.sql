-- DNI allocation by a clock over the pool, opened in batches (issue 14).
--
-- Before: the free number released longest ago came from an index on
-- held_until, and the shared one from an index on last_assigned_at. Every
-- session rewrote both indexes (no HOT update possible), and concurrent
-- transactions all scanned the same head of the free-number index, full of
-- rows locked by others or dead.
--
-- Now each pool number has a dense slot (0 .. pool_size - 1) and each campaign
-- a clock hand (a sequence, so concurrent transactions never draw the same
-- value and never wait for each other). A new visitor takes the slot under the
-- hand if it is free, else the next ones; held_until and last_assigned_at are
-- no longer indexed, so taking a number is a HOT update on a page kept half
-- empty for it. The hand walks the slots in order, so it hands out the free
-- number assigned longest ago: the contract's "released longest ago" while
-- the pool is larger than the new-visitor rate times the session lifetime
-- (docs/pool-sizing.md has the simulator's comparison).

ALTER TABLE "tracking_numbers" ADD COLUMN "slot" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "pool_size" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- No pool number is free before this instant (set when a full search found
-- none; numbers only ever get held longer; cleared when the pool changes).
ALTER TABLE "campaigns" ADD COLUMN "pool_full_until" timestamp with time zone;--> statement-breakpoint

-- Existing pools: slots in the order the old allocator would have walked them.
UPDATE "tracking_numbers" n SET "slot" = r.s
  FROM (SELECT "e164", (row_number() OVER (
          PARTITION BY "campaign_id" ORDER BY "last_assigned_at" NULLS FIRST, "e164") - 1)::int AS s
          FROM "tracking_numbers" WHERE "role" = 'pool') r
 WHERE n."e164" = r."e164";--> statement-breakpoint
UPDATE "campaigns" c SET "pool_size" = (
  SELECT count(*) FROM "tracking_numbers" n WHERE n."campaign_id" = c."id" AND n."role" = 'pool');--> statement-breakpoint

DROP INDEX "tracking_numbers_free_idx";--> statement-breakpoint
DROP INDEX "tracking_numbers_lra_idx";--> statement-breakpoint
CREATE INDEX "tracking_numbers_slot_idx" ON "tracking_numbers" USING btree ("campaign_id","slot") WHERE "role" = 'pool';--> statement-breakpoint
CREATE INDEX "tracking_numbers_overflow_idx" ON "tracking_numbers" USING btree ("campaign_id") WHERE "role" = 'overflow';--> statement-breakpoint
ALTER TABLE "tracking_numbers" SET (fillfactor = 50);--> statement-breakpoint

-- The sticky lookup needs (campaign, visitor) only: with expires_at out of the
-- index, renewing a session is a HOT update too.
DROP INDEX "dni_sessions_visitor_idx";--> statement-breakpoint
CREATE INDEX "dni_sessions_visitor_idx" ON "dni_sessions" USING btree ("campaign_id","visitor_id");--> statement-breakpoint
ALTER TABLE "dni_sessions" SET (fillfactor = 85);--> statement-breakpoint
-- Sharing a number flags the live sessions on it that are not flagged yet:
-- this index holds only those, so the cost does not grow with the sessions
-- that already share the number (the exhausted-pool row of bench/README.md).
CREATE INDEX "dni_sessions_unflagged_idx" ON "dni_sessions" USING btree ("tracking_number") WHERE NOT "ambiguous";--> statement-breakpoint

-- One clock hand per campaign.
CREATE FUNCTION dni_clock_name(p_campaign text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$ SELECT 'dni_clock_' || md5(p_campaign) $$;--> statement-breakpoint

CREATE FUNCTION campaigns_create_clock() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE SEQUENCE IF NOT EXISTS %I MINVALUE 0 START 0', dni_clock_name(NEW.id));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER campaigns_create_clock AFTER INSERT ON "campaigns"
  FOR EACH ROW EXECUTE FUNCTION campaigns_create_clock();--> statement-breakpoint
DO $$
DECLARE c text;
BEGIN
  FOR c IN SELECT id FROM campaigns LOOP
    EXECUTE format('CREATE SEQUENCE IF NOT EXISTS %I MINVALUE 0 START 0', dni_clock_name(c));
  END LOOP;
END
$$;--> statement-breakpoint

-- A new pool number takes the next slot as it is inserted (set before the
-- row is written: no second version of it to clean up, which a 150,000-number
-- pool made autovacuum do under load); removing numbers closes the gaps,
-- survivors keeping their order.
CREATE FUNCTION tracking_numbers_slot() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.role = 'pool' THEN
    UPDATE campaigns c SET pool_size = c.pool_size + 1, pool_full_until = NULL
     WHERE c.id = NEW.campaign_id
    RETURNING c.pool_size - 1 INTO NEW.slot;
  ELSE
    NEW.slot := NULL;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER tracking_numbers_slot BEFORE INSERT ON "tracking_numbers"
  FOR EACH ROW EXECUTE FUNCTION tracking_numbers_slot();--> statement-breakpoint

CREATE FUNCTION tracking_numbers_removed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_campaigns text[] := ARRAY(SELECT DISTINCT campaign_id FROM removed);
BEGIN
  UPDATE tracking_numbers n SET slot = r.s
    FROM (SELECT e164, (row_number() OVER (PARTITION BY campaign_id ORDER BY slot) - 1)::int AS s
            FROM tracking_numbers
           WHERE campaign_id = ANY (v_campaigns) AND role = 'pool') r
   WHERE n.e164 = r.e164 AND n.slot IS DISTINCT FROM r.s;
  UPDATE campaigns c
     SET pool_size = (SELECT count(*) FROM tracking_numbers n
                       WHERE n.campaign_id = c.id AND n.role = 'pool'),
         pool_full_until = NULL
   WHERE c.id = ANY (v_campaigns);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER tracking_numbers_removed AFTER DELETE ON "tracking_numbers"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION tracking_numbers_removed();--> statement-breakpoint

-- Many DNI requests in one statement: one row back per request, in order
-- (ord is the 1-based index into the arrays). Each request sees the ones
-- before it, so two requests of one visitor in a batch get one session.
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
CREATE FUNCTION dni_open_sessions(
  p_orgs text[], p_codes text[], p_visitors text[], p_nows timestamptz[], p_ids text[], p_attrs jsonb[]
) RETURNS TABLE (
  ord integer, session_id text, tracking_number text, expires_at timestamptz, outcome text, campaign_id text
)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan
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
  a jsonb;
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
  PERFORM 1 FROM tracking_numbers t
    WHERE t.role = 'pool' AND t.e164 IN (
          SELECT s.tracking_number
            FROM unnest(v_campaigns, p_visitors, p_nows) AS v(c, visitor, at)
            JOIN dni_sessions s ON s.campaign_id = v.c AND s.visitor_id = v.visitor
                               AND s.expires_at > v.at)
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
           AND (t.held_until IS NULL OR t.held_until <= v_now)
         FOR UPDATE SKIP LOCKED;
        EXIT WHEN FOUND;
      END LOOP;
      IF v_num IS NULL AND v_size > 8 THEN
        -- A crowded pool: the first free slot after the hand, wrapping round.
        SELECT t.e164 INTO v_num FROM tracking_numbers t
         WHERE t.campaign_id = v_campaign AND t.role = 'pool' AND t.slot > v_slot
           AND (t.held_until IS NULL OR t.held_until <= v_now)
         ORDER BY t.slot LIMIT 1
         FOR UPDATE SKIP LOCKED;
        IF NOT FOUND THEN
          SELECT t.e164 INTO v_num FROM tracking_numbers t
           WHERE t.campaign_id = v_campaign AND t.role = 'pool' AND t.slot <= v_slot
             AND (t.held_until IS NULL OR t.held_until <= v_now)
           ORDER BY t.slot LIMIT 1
           FOR UPDATE SKIP LOCKED;
        END IF;
      END IF;
      IF v_num IS NULL THEN
        -- Nothing free: remember until when, for this batch and (if the
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
    END IF;

    IF v_num IS NOT NULL THEN
      v_outcome := 'allocated';
    ELSE
      SELECT t.e164 INTO v_num FROM tracking_numbers t
       WHERE t.campaign_id = v_campaign AND t.role = 'overflow'
       LIMIT 1;
      IF FOUND THEN
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
        SELECT t.e164 INTO v_num FROM tracking_numbers t
         WHERE t.campaign_id = v_campaign AND t.role = 'pool'
           AND (t.slot BETWEEN v_slot AND v_slot + 15 OR t.slot <= v_slot + 15 - v_size)
         ORDER BY t.last_assigned_at NULLS FIRST, t.slot
         LIMIT 1
         FOR UPDATE SKIP LOCKED;
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
        v_outcome := 'shared';
        UPDATE dni_sessions s SET ambiguous = true
         WHERE s.tracking_number = v_num AND s.expires_at > v_now AND NOT s.ambiguous;
      END IF;
    END IF;

    IF v_outcome <> 'overflow' THEN
      UPDATE tracking_numbers t
         SET held_by = p_ids[i],
             held_until = GREATEST(COALESCE(t.held_until, v_exp), v_exp),
             last_assigned_at = v_now
       WHERE t.e164 = v_num;
      v_mine := v_mine || v_num;
    END IF;

    a := p_attrs[i];
    INSERT INTO dni_sessions (
      id, org_id, campaign_id, visitor_id, tracking_number, kind, ambiguous,
      created_at, expires_at, last_seen_at, hits,
      gclid, fbc, fbp, landing_url, fbclid, msclkid, gbraid, wbraid,
      utm_source, utm_medium, utm_campaign, utm_term, utm_content
    ) VALUES (
      p_ids[i], p_orgs[i], v_campaign, p_visitors[i], v_num, v_outcome, v_outcome <> 'allocated',
      v_now, v_exp, v_now, 1,
      a->>'gclid', a->>'fbc', a->>'fbp', a->>'landing_url',
      a->>'fbclid', a->>'msclkid', a->>'gbraid', a->>'wbraid',
      a->>'utm_source', a->>'utm_medium', a->>'utm_campaign',
      a->>'utm_term', a->>'utm_content'
    );
    session_id := p_ids[i]; tracking_number := v_num; expires_at := v_exp; outcome := v_outcome;
    RETURN NEXT;
  END LOOP;
END
$$;--> statement-breakpoint

-- The one-request form, kept for callers of one session at a time: a batch of one.
DROP FUNCTION dni_open_session(text, text, text, timestamptz, text, jsonb);--> statement-breakpoint
CREATE FUNCTION dni_open_session(
  p_org text, p_code text, p_visitor text, p_now timestamptz, p_new_id text, p_attrs jsonb
) RETURNS TABLE (
  session_id text, tracking_number text, expires_at timestamptz, outcome text, campaign_id text
)
LANGUAGE sql AS $$
  SELECT b.session_id, b.tracking_number, b.expires_at, b.outcome, b.campaign_id
    FROM dni_open_sessions(ARRAY[p_org], ARRAY[p_code], ARRAY[p_visitor], ARRAY[p_now],
                           ARRAY[p_new_id], ARRAY[p_attrs]) b
   WHERE b.outcome <> 'campaign_not_found';
$$;
