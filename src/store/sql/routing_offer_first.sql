-- Routing's one write of a new offer (docs/routing.md, "Caps"), for one call or a batch of
-- them: each call, in the batch's order, is offered to the first buyer of its `buyers` (the
-- draw order routing chose) that is active and under every cap at `at`; a call none of them
-- takes goes to its fallback. Returns each call's buyer (null: the fallback).
--
-- A place is taken by one conditional UPDATE of the buyer's buyer_usage row: the count and the
-- check are one statement, and the row is locked, so no two offers see the last place free.
-- A batch of several calls locks every row it may take first, in buyer order: two
-- transactions taking places for the same buyers lock them in the same order and never each
-- hold a row the other waits for, whatever order their calls try buyers in. A lone call skips
-- that: it holds at most one row, the one it took, and waits for nothing once it holds it (a
-- conditional UPDATE that finds a buyer full locks nothing), so it cannot close a cycle; and
-- it does not wait for the rows of buyers it would never reach. Only transactions that share a
-- buyer wait for each other; a buyer belongs to one organization. Callers make this the last
-- statement of their transaction, so the rows stay locked only until the commit that follows.
--
-- Each period's start is the later of the stored one and the buyer's period at `at`, so a
-- request whose clock reads a little behind a concurrent one's counts in the newer period
-- rather than resetting it. The offer keeps the periods it was counted in (givePlace).
--
-- p_buyers: every buyer the batch names, once; p_offers: a JSON array of {ord, id (the
-- offer's), org_id, call_id, seq, at, buyers (the call's buyers in order, as 1-based places in
-- p_buyers: a batch of calls that may each go to 50 buyers names each id once), fallback,
-- reason, audit_id, actor, request_id}.
CREATE OR REPLACE FUNCTION routing_offer_first(p_buyers text[], p_offers jsonb)
RETURNS TABLE (ord integer, buyer_id text)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  o record;
  i integer;
  b text;
  taken text;
  v_hour timestamptz;
  v_day timestamptz;
  v_month timestamptz;
BEGIN
  IF jsonb_array_length(p_offers) > 1 THEN
    PERFORM 1 FROM buyer_usage u
     WHERE u.buyer_id = ANY(p_buyers)
     ORDER BY u.buyer_id
       FOR UPDATE;
  END IF;
  FOR o IN
    SELECT * FROM jsonb_to_recordset(p_offers) AS x(
      ord integer, id text, org_id text, call_id text, seq integer, at timestamptz,
      buyers integer[], fallback text, reason text, audit_id text, actor text, request_id text)
     ORDER BY x.ord
  LOOP
    taken := NULL;
    FOREACH i IN ARRAY coalesce(o.buyers, '{}'::integer[]) LOOP
      b := p_buyers[i];
      UPDATE buyer_usage u SET
        hour_count = CASE WHEN u.hour_start >= p.h THEN u.hour_count + 1 ELSE 1 END,
        hour_start = greatest(u.hour_start, p.h),
        day_count = CASE WHEN u.day_start >= p.d THEN u.day_count + 1 ELSE 1 END,
        day_start = greatest(u.day_start, p.d),
        month_count = CASE WHEN u.month_start >= p.m THEN u.month_count + 1 ELSE 1 END,
        month_start = greatest(u.month_start, p.m),
        total_count = u.total_count + 1,
        live_count = u.live_count + 1
      FROM (SELECT bu.id, bu.cap_hourly, bu.cap_daily, bu.cap_monthly, bu.cap_total,
                   bu.cap_concurrency,
                   date_trunc('hour', o.at, bu.time_zone) AS h,
                   date_trunc('day', o.at, bu.time_zone) AS d,
                   date_trunc('month', o.at, bu.time_zone) AS m
              FROM buyers bu
             WHERE bu.id = b AND bu.org_id = o.org_id AND bu.status = 'active') p
      WHERE u.buyer_id = p.id
        AND (p.cap_hourly IS NULL
             OR (CASE WHEN u.hour_start >= p.h THEN u.hour_count ELSE 0 END) < p.cap_hourly)
        AND (p.cap_daily IS NULL
             OR (CASE WHEN u.day_start >= p.d THEN u.day_count ELSE 0 END) < p.cap_daily)
        AND (p.cap_monthly IS NULL
             OR (CASE WHEN u.month_start >= p.m THEN u.month_count ELSE 0 END) < p.cap_monthly)
        AND (p.cap_total IS NULL OR u.total_count < p.cap_total)
        AND (p.cap_concurrency IS NULL OR u.live_count < p.cap_concurrency)
      RETURNING u.hour_start, u.day_start, u.month_start INTO v_hour, v_day, v_month;
      IF FOUND THEN
        taken := b;
        INSERT INTO call_offers (id, org_id, call_id, seq, buyer_id, offered_at,
                                 hour_start, day_start, month_start)
        VALUES (o.id, o.org_id, o.call_id, o.seq, b, o.at, v_hour, v_day, v_month);
        INSERT INTO audit_log (id, org_id, actor, action, subject_type, subject_id, detail,
                               request_id, at)
        VALUES (o.audit_id, o.org_id, o.actor, 'call.offered', 'call', o.call_id,
                jsonb_build_object('buyer_id', b, 'seq', o.seq), o.request_id, o.at);
        EXIT;
      END IF;
    END LOOP;
    IF taken IS NULL THEN
      UPDATE calls SET fallback = o.fallback, fallback_reason = o.reason WHERE id = o.call_id;
      INSERT INTO audit_log (id, org_id, actor, action, subject_type, subject_id, detail,
                             request_id, at)
      VALUES (o.audit_id, o.org_id, o.actor, 'call.fallback', 'call', o.call_id,
              jsonb_build_object('fallback', o.fallback, 'reason', o.reason), o.request_id,
              o.at);
    END IF;
    ord := o.ord;
    buyer_id := taken;
    RETURN NEXT;
  END LOOP;
END
$$;
