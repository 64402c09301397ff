-- Allocation policies to compare with the clock (dni_open_sessions, migration
-- 0017) on the same traces: `npm run simulate -- --policy lrr|quarantine`.
-- Installed by the simulator in its own scratch database only, never by a
-- migration. Each batch function has dni_open_sessions' signature and rows.
--
-- lrr: the policy before the clock, migration 0008's dni_open_session: the free
-- number released longest ago, from the index 0017 dropped; exhausted, share
-- the number assigned longest ago. quarantine: the same, but a number released
-- less than 30 minutes ago (the grace window) is not free yet: the visitor
-- shares a held number instead, the one assigned longest ago.

CREATE INDEX IF NOT EXISTS "tracking_numbers_free_idx" ON "tracking_numbers" USING btree ("campaign_id","role","held_until" NULLS FIRST,"e164");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "tracking_numbers_lra_idx" ON "tracking_numbers" USING btree ("campaign_id","role","last_assigned_at" NULLS FIRST,"e164");--> statement-breakpoint

CREATE OR REPLACE FUNCTION sim_open_session_lrr(
  p_org text, p_code text, p_visitor text, p_now timestamptz, p_new_id text, p_attrs jsonb,
  p_quarantine interval
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
  PERFORM pg_advisory_xact_lock(hashtextextended(v_campaign || chr(31) || p_visitor, 0));

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

  SELECT n.e164 INTO v_num FROM tracking_numbers n
   WHERE n.campaign_id = v_campaign AND n.role = 'pool'
     AND (n.held_until IS NULL OR n.held_until <= p_now - p_quarantine)
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
      -- Under quarantine a held number first: a quarantined one is free, and
      -- sharing it would only be the reuse the quarantine is there to avoid.
      SELECT n.e164 INTO v_num FROM tracking_numbers n
       WHERE n.campaign_id = v_campaign AND n.role = 'pool'
       ORDER BY (p_quarantine > interval '0' AND n.held_until <= p_now),
                n.last_assigned_at ASC NULLS FIRST, n.e164
       LIMIT 1 FOR UPDATE;
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
    created_at, expires_at, last_seen_at, hits
  ) VALUES (
    p_new_id, p_org, v_campaign, p_visitor, v_num, v_outcome, v_outcome <> 'allocated',
    p_now, v_exp, p_now, 1
  );
  RETURN QUERY SELECT p_new_id, v_num, v_exp, v_outcome, v_campaign;
END
$$;--> statement-breakpoint

-- Request by request, in order: each sees the ones before it (a volatile
-- function's statements take a new snapshot).
CREATE OR REPLACE FUNCTION sim_open_sessions_lrr(
  p_orgs text[], p_codes text[], p_visitors text[], p_nows timestamptz[], p_ids text[], p_attrs jsonb[],
  p_quarantine interval
) RETURNS TABLE (
  ord integer, session_id text, tracking_number text, expires_at timestamptz, outcome text, campaign_id text
)
LANGUAGE sql AS $$
  SELECT u.o::integer, f.session_id, f.tracking_number, f.expires_at,
         coalesce(f.outcome, 'campaign_not_found'), f.campaign_id
    FROM unnest(p_orgs, p_codes, p_visitors, p_nows, p_ids, p_attrs)
         WITH ORDINALITY AS u(org, code, visitor, at, id, attrs, o)
    LEFT JOIN LATERAL sim_open_session_lrr(u.org, u.code, u.visitor, u.at, u.id, u.attrs, p_quarantine) f
      ON true
   ORDER BY u.o;
$$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION dni_open_sessions_lrr(
  p_orgs text[], p_codes text[], p_visitors text[], p_nows timestamptz[], p_ids text[], p_attrs jsonb[]
) RETURNS TABLE (
  ord integer, session_id text, tracking_number text, expires_at timestamptz, outcome text, campaign_id text
)
LANGUAGE sql AS $$
  SELECT * FROM sim_open_sessions_lrr(p_orgs, p_codes, p_visitors, p_nows, p_ids, p_attrs, interval '0');
$$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION dni_open_sessions_quarantine(
  p_orgs text[], p_codes text[], p_visitors text[], p_nows timestamptz[], p_ids text[], p_attrs jsonb[]
) RETURNS TABLE (
  ord integer, session_id text, tracking_number text, expires_at timestamptz, outcome text, campaign_id text
)
LANGUAGE sql AS $$
  SELECT * FROM sim_open_sessions_lrr(p_orgs, p_codes, p_visitors, p_nows, p_ids, p_attrs, interval '30 minutes');
$$;
