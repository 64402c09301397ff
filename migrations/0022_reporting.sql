-- Reporting (issue 20, docs/reporting.md): rollups kept as the events happen,
-- so a report reads a few thousand rows instead of millions, and keeps
-- answering after retention has pruned the raw sessions.
--
-- Cells are UTC quarter hours: every zone's offset today is a whole number of
-- quarter hours (+05:45, +08:45, +12:45 included), so any zone's hours, days,
-- weeks and months, DST included, are unions of them; a change of the
-- organization's zone needs no rebuild.
--
-- Writers never update a rollup row: they append deltas (no row lock shared
-- between concurrent DNI batches, so no waits and no deadlocks), and the
-- retention round folds the deltas into the rollups (report_compact). Reports
-- read rollups and deltas together, so they are exact whether or not the fold
-- has run.

ALTER TABLE "orgs" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint

-- The source of a session (contract §8): utm_source, else the click id's network, else direct.
CREATE FUNCTION report_source(
  p_utm_source text, p_gclid text, p_gbraid text, p_wbraid text, p_fbclid text, p_fbc text, p_msclkid text
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN nullif(btrim(p_utm_source), '') IS NOT NULL THEN lower(btrim(p_utm_source))
    WHEN coalesce(nullif(p_gclid, ''), nullif(p_gbraid, ''), nullif(p_wbraid, '')) IS NOT NULL THEN 'google'
    WHEN coalesce(nullif(p_fbclid, ''), nullif(p_fbc, '')) IS NOT NULL THEN 'meta'
    WHEN nullif(p_msclkid, '') IS NOT NULL THEN 'microsoft'
    ELSE 'direct' END
$$;--> statement-breakpoint

-- The path of a landing URL, without query or fragment ('/' when empty; null without a URL).
CREATE FUNCTION report_path(p_url text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN nullif(p_url, '') IS NULL THEN NULL
    WHEN p_url ~ '^[A-Za-z][A-Za-z0-9+.-]*://'
      THEN coalesce(nullif(substring(p_url FROM '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*([^?#]*)'), ''), '/')
    ELSE coalesce(nullif(substring(p_url FROM '^([^?#]*)'), ''), '/') END
$$;--> statement-breakpoint

CREATE FUNCTION report_quarter(p_at timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT date_bin('15 minutes', p_at, TIMESTAMPTZ '2000-01-01 00:00:00+00')
$$;--> statement-breakpoint

-- Traffic cells. `grain` says which keys a row carries ('' elsewhere), so a
-- report reads the smallest grain that has its grouping and filters:
--   0 campaign, source
--   1 campaign, source, medium, utm_campaign, landing_path, attribution
--   3 all of them (grouping by tracking number reads it)
-- (No grain 2: a tracking-number grain would hold about one row per session,
-- and its write cost more than the report it would speed up.)
-- A session has no attribution rule (''); a call without a session has the
-- source 'unattributed' and '' for the session's keys.
CREATE TABLE "report_traffic_rollups" (
  "grain" smallint NOT NULL,
  "org_id" text NOT NULL,
  "bucket" timestamp with time zone NOT NULL,
  "campaign_id" text NOT NULL,
  "source" text NOT NULL,
  "medium" text DEFAULT '' NOT NULL,
  "utm_campaign" text DEFAULT '' NOT NULL,
  "landing_path" text DEFAULT '' NOT NULL,
  "attribution" text DEFAULT '' NOT NULL,
  "tracking_number" text DEFAULT '' NOT NULL,
  "sessions" bigint DEFAULT 0 NOT NULL,
  "sessions_shared" bigint DEFAULT 0 NOT NULL,
  "sessions_overflow" bigint DEFAULT 0 NOT NULL,
  "sessions_ambiguous" bigint DEFAULT 0 NOT NULL,
  "session_renewals" bigint DEFAULT 0 NOT NULL,
  "calls" bigint DEFAULT 0 NOT NULL,
  "calls_with_session" bigint DEFAULT 0 NOT NULL,
  "calls_on_shared_number" bigint DEFAULT 0 NOT NULL,
  "calls_first_time" bigint DEFAULT 0 NOT NULL,
  "calls_answered" bigint DEFAULT 0 NOT NULL,
  "calls_missed" bigint DEFAULT 0 NOT NULL,
  "calls_under_30s" bigint DEFAULT 0 NOT NULL,
  "calls_30s_to_2m" bigint DEFAULT 0 NOT NULL,
  "calls_2m_to_10m" bigint DEFAULT 0 NOT NULL,
  "calls_over_10m" bigint DEFAULT 0 NOT NULL,
  "buyer_reports" bigint DEFAULT 0 NOT NULL,
  "buyer_corrections" bigint DEFAULT 0 NOT NULL,
  "buyer_success" bigint DEFAULT 0 NOT NULL,
  "buyer_rejected" bigint DEFAULT 0 NOT NULL,
  "buyer_reported_calls" bigint DEFAULT 0 NOT NULL,
  "buyer_report_seconds_sum" bigint DEFAULT 0 NOT NULL,
  PRIMARY KEY ("org_id", "grain", "bucket", "campaign_id", "source", "medium", "utm_campaign", "landing_path", "attribution", "tracking_number")
);--> statement-breakpoint
CREATE TABLE "report_traffic_deltas" (
  "seq" bigserial NOT NULL,
  "grain" smallint NOT NULL,
  "org_id" text NOT NULL,
  "bucket" timestamp with time zone NOT NULL,
  "campaign_id" text NOT NULL,
  "source" text NOT NULL,
  "medium" text DEFAULT '' NOT NULL,
  "utm_campaign" text DEFAULT '' NOT NULL,
  "landing_path" text DEFAULT '' NOT NULL,
  "attribution" text DEFAULT '' NOT NULL,
  "tracking_number" text DEFAULT '' NOT NULL,
  "sessions" bigint DEFAULT 0 NOT NULL,
  "sessions_shared" bigint DEFAULT 0 NOT NULL,
  "sessions_overflow" bigint DEFAULT 0 NOT NULL,
  "sessions_ambiguous" bigint DEFAULT 0 NOT NULL,
  "session_renewals" bigint DEFAULT 0 NOT NULL,
  "calls" bigint DEFAULT 0 NOT NULL,
  "calls_with_session" bigint DEFAULT 0 NOT NULL,
  "calls_on_shared_number" bigint DEFAULT 0 NOT NULL,
  "calls_first_time" bigint DEFAULT 0 NOT NULL,
  "calls_answered" bigint DEFAULT 0 NOT NULL,
  "calls_missed" bigint DEFAULT 0 NOT NULL,
  "calls_under_30s" bigint DEFAULT 0 NOT NULL,
  "calls_30s_to_2m" bigint DEFAULT 0 NOT NULL,
  "calls_2m_to_10m" bigint DEFAULT 0 NOT NULL,
  "calls_over_10m" bigint DEFAULT 0 NOT NULL,
  "buyer_reports" bigint DEFAULT 0 NOT NULL,
  "buyer_corrections" bigint DEFAULT 0 NOT NULL,
  "buyer_success" bigint DEFAULT 0 NOT NULL,
  "buyer_rejected" bigint DEFAULT 0 NOT NULL,
  "buyer_reported_calls" bigint DEFAULT 0 NOT NULL,
  "buyer_report_seconds_sum" bigint DEFAULT 0 NOT NULL
);--> statement-breakpoint
-- Deltas carry no index: only appended, then read whole by the fold.

-- One event's counters (p_m in the order of the columns) in every grain.
CREATE FUNCTION report_traffic_add(
  p_org text, p_bucket timestamptz, p_campaign text, p_source text, p_medium text,
  p_utm_campaign text, p_path text, p_attribution text, p_number text, p_m bigint[]
) RETURNS void LANGUAGE sql AS $$
  INSERT INTO report_traffic_deltas (grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number, sessions, sessions_shared, sessions_overflow, sessions_ambiguous, session_renewals, calls, calls_with_session, calls_on_shared_number, calls_first_time, calls_answered, calls_missed, calls_under_30s, calls_30s_to_2m, calls_2m_to_10m, calls_over_10m, buyer_reports, buyer_corrections, buyer_success, buyer_rejected, buyer_reported_calls, buyer_report_seconds_sum)
  SELECT g.grain, p_org, p_bucket, p_campaign, p_source,
    CASE WHEN g.grain IN (1, 3) THEN coalesce(p_medium, '') ELSE '' END,
    CASE WHEN g.grain IN (1, 3) THEN coalesce(p_utm_campaign, '') ELSE '' END,
    CASE WHEN g.grain IN (1, 3) THEN coalesce(p_path, '') ELSE '' END,
    CASE WHEN g.grain > 0 THEN coalesce(p_attribution, '') ELSE '' END,
    CASE WHEN g.grain >= 2 THEN coalesce(p_number, '') ELSE '' END,
    p_m[1],
    p_m[2],
    p_m[3],
    p_m[4],
    p_m[5],
    p_m[6],
    p_m[7],
    p_m[8],
    p_m[9],
    p_m[10],
    p_m[11],
    p_m[12],
    p_m[13],
    p_m[14],
    p_m[15],
    p_m[16],
    p_m[17],
    p_m[18],
    p_m[19],
    p_m[20],
    p_m[21]
  FROM (VALUES (0), (1), (3)) g(grain)
$$;--> statement-breakpoint

-- One narrow row per call, kept as long as the rollups: the distinct counts
-- (unique callers) cannot be summed from cells, so they are counted here.
CREATE TABLE "report_calls" (
  "call_id" text PRIMARY KEY NOT NULL,
  "org_id" text NOT NULL,
  "started_at" timestamp with time zone NOT NULL,
  "campaign_id" text NOT NULL,
  "source" text NOT NULL,
  "medium" text DEFAULT '' NOT NULL,
  "utm_campaign" text DEFAULT '' NOT NULL,
  "landing_path" text DEFAULT '' NOT NULL,
  "attribution" text NOT NULL,
  "tracking_number" text NOT NULL,
  "caller" text NOT NULL,
  "first_time" boolean NOT NULL
);--> statement-breakpoint
CREATE INDEX "report_calls_org_started_idx" ON "report_calls" ("org_id", "started_at") INCLUDE ("campaign_id", "source", "caller");--> statement-breakpoint
-- Each caller's first call in the organization: the first-time flag of a call.
CREATE TABLE "report_callers" (
  "org_id" text NOT NULL,
  "caller" text NOT NULL,
  "first_call_id" text NOT NULL,
  "first_started_at" timestamp with time zone NOT NULL,
  PRIMARY KEY ("org_id", "caller")
);--> statement-breakpoint

-- What the carrier said about a call: answered, missed, or not yet known.
CREATE FUNCTION report_call_outcome(p_status text, p_duration integer) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN p_status = 'completed' AND coalesce(p_duration, 0) > 0 THEN 'answered'
    WHEN p_status IN ('busy', 'no-answer', 'failed', 'canceled', 'completed') THEN 'missed'
    ELSE NULL END
$$;--> statement-breakpoint
CREATE FUNCTION report_call_band(p_status text, p_duration integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN report_call_outcome(p_status, p_duration) <> 'answered' OR p_status IS NULL THEN NULL
    WHEN p_duration < 30 THEN 0 WHEN p_duration < 120 THEN 1 WHEN p_duration < 600 THEN 2 ELSE 3 END
$$;--> statement-breakpoint

-- A call's counters that change after it is recorded (carrier status, latest
-- buyer disposition), times p_sign: -1 for the old row, +1 for the new.
CREATE FUNCTION report_call_state(c calls, p_sign integer) RETURNS bigint[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY[0, 0, 0, 0, 0, 0, 0, 0, 0, (report_call_outcome(c.status, c.duration_seconds) IS NOT DISTINCT FROM 'answered')::int * p_sign, (report_call_outcome(c.status, c.duration_seconds) IS NOT DISTINCT FROM 'missed')::int * p_sign, (report_call_band(c.status, c.duration_seconds) IS NOT DISTINCT FROM 0)::int * p_sign, (report_call_band(c.status, c.duration_seconds) IS NOT DISTINCT FROM 1)::int * p_sign, (report_call_band(c.status, c.duration_seconds) IS NOT DISTINCT FROM 2)::int * p_sign, (report_call_band(c.status, c.duration_seconds) IS NOT DISTINCT FROM 3)::int * p_sign, 0, 0, (c.disposition IS NOT DISTINCT FROM 'success')::int * p_sign, (c.disposition IS NOT DISTINCT FROM 'rejected')::int * p_sign, 0, 0]::bigint[]
$$;--> statement-breakpoint

CREATE FUNCTION report_add_call(f report_calls, p_m bigint[]) RETURNS void LANGUAGE sql AS $$
  SELECT report_traffic_add(f.org_id, report_quarter(f.started_at), f.campaign_id, f.source, f.medium,
    f.utm_campaign, f.landing_path, f.attribution, f.tracking_number, p_m)
$$;--> statement-breakpoint

-- A recorded call: its facts row, its first-time flag, its counters.
CREATE FUNCTION report_on_call_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s dni_sessions;
  f report_calls;
  v_old report_calls;
  c report_callers;
  v_first boolean := true;
  v_state bigint[];
BEGIN
  f.call_id := NEW.id; f.org_id := NEW.org_id; f.started_at := NEW.started_at;
  f.campaign_id := NEW.campaign_id; f.attribution := NEW.attribution;
  f.tracking_number := NEW.tracking_number; f.caller := NEW.from_number;
  f.source := 'unattributed'; f.medium := ''; f.utm_campaign := ''; f.landing_path := '';
  IF NEW.dni_session_id IS NOT NULL THEN
    SELECT * INTO s FROM dni_sessions WHERE id = NEW.dni_session_id;
    IF FOUND THEN
      f.source := report_source(s.utm_source, s.gclid, s.gbraid, s.wbraid, s.fbclid, s.fbc, s.msclkid);
      f.medium := coalesce(s.utm_medium, ''); f.utm_campaign := coalesce(s.utm_campaign, '');
      f.landing_path := coalesce(report_path(s.landing_url), '');
    END IF;
  END IF;
  INSERT INTO report_callers (org_id, caller, first_call_id, first_started_at)
  VALUES (NEW.org_id, NEW.from_number, NEW.id, NEW.started_at)
  ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    SELECT * INTO c FROM report_callers WHERE org_id = NEW.org_id AND caller = NEW.from_number FOR UPDATE;
    IF (NEW.started_at, NEW.id) < (c.first_started_at, c.first_call_id) THEN
      -- Recorded late but earlier than the caller's first call so far: that one becomes a repeat.
      UPDATE report_callers SET first_call_id = NEW.id, first_started_at = NEW.started_at
       WHERE org_id = NEW.org_id AND caller = NEW.from_number;
      UPDATE report_calls r SET first_time = false WHERE r.call_id = c.first_call_id RETURNING * INTO v_old;
      PERFORM report_add_call(v_old, ARRAY[0, 0, 0, 0, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]::bigint[]);
    ELSE
      v_first := false;
    END IF;
  END IF;
  f.first_time := v_first;
  INSERT INTO report_calls VALUES (f.*);
  v_state := report_call_state(NEW, 1);
  PERFORM report_add_call(f, (SELECT array_agg(a + b ORDER BY o) FROM unnest(
    ARRAY[0, 0, 0, 0, 0, 1, (NEW.dni_session_id IS NOT NULL)::int, NEW.ambiguous::int, v_first::int, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]::bigint[], v_state) WITH ORDINALITY AS u(a, b, o)));
  RETURN NULL;
END
$$;--> statement-breakpoint

-- A carrier status or a buyer report changed a call: move it between cells.
CREATE FUNCTION report_on_call_update() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  f report_calls;
  v_m bigint[];
BEGIN
  SELECT * INTO f FROM report_calls WHERE call_id = NEW.id;
  IF NOT FOUND THEN RETURN NULL; END IF;
  SELECT array_agg(a + b ORDER BY o) INTO v_m
    FROM unnest(report_call_state(NEW, 1), report_call_state(OLD, -1)) WITH ORDINALITY AS u(a, b, o);
  IF NEW.disposition_event_id IS DISTINCT FROM OLD.disposition_event_id THEN
    SELECT array_agg(a + b ORDER BY o) INTO v_m
      FROM unnest(v_m, ARRAY[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, (OLD.disposition_event_id IS NOT NULL)::int, 0, 0, (OLD.disposition_event_id IS NULL)::int, CASE WHEN OLD.disposition_event_id IS NULL THEN floor(extract(epoch FROM NEW.disposition_at - NEW.started_at))::bigint ELSE 0 END]::bigint[]) WITH ORDINALITY AS u(a, b, o);
  END IF;
  IF EXISTS (SELECT 1 FROM unnest(v_m) x WHERE x <> 0) THEN
    PERFORM report_add_call(f, v_m);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "report_calls_insert" AFTER INSERT ON "calls"
  FOR EACH ROW EXECUTE FUNCTION report_on_call_insert();--> statement-breakpoint
CREATE TRIGGER "report_calls_update" AFTER UPDATE OF "status", "duration_seconds", "disposition_event_id" ON "calls"
  FOR EACH ROW EXECUTE FUNCTION report_on_call_update();--> statement-breakpoint

-- A live session whose number another visitor was given: ambiguous from now
-- on, counted in the cell of its creation (new sessions are counted by the DNI
-- batch itself, src/store/repos/dni.ts).
CREATE FUNCTION report_on_session_flagged() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_traffic_add(NEW.org_id, report_quarter(NEW.created_at), NEW.campaign_id,
    report_source(NEW.utm_source, NEW.gclid, NEW.gbraid, NEW.wbraid, NEW.fbclid, NEW.fbc, NEW.msclkid),
    NEW.utm_medium, NEW.utm_campaign, report_path(NEW.landing_url), '', NEW.tracking_number,
    ARRAY[0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]::bigint[]);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "report_sessions_flagged" AFTER UPDATE OF "ambiguous" ON "dni_sessions"
  FOR EACH ROW WHEN (NEW.ambiguous AND NOT OLD.ambiguous)
  EXECUTE FUNCTION report_on_session_flagged();--> statement-breakpoint

-- Touch cells: one row per touch with reason '' (the touch itself), and one
-- per reason code it was blocked for ('none' when placed), so a grouping by
-- reason counts a touch under each of its reasons while totals count it once.
CREATE TABLE "report_touch_rollups" (
  "org_id" text NOT NULL,
  "bucket" timestamp with time zone NOT NULL,
  "campaign_id" text NOT NULL,
  "channel" text NOT NULL,
  "purpose" text NOT NULL,
  "outcome" text NOT NULL,
  "state" text NOT NULL,
  "reason" text NOT NULL,
  "touches" bigint DEFAULT 0 NOT NULL,
  "placed" bigint DEFAULT 0 NOT NULL,
  "blocked" bigint DEFAULT 0 NOT NULL,
  "delivered" bigint DEFAULT 0 NOT NULL,
  "failed" bigint DEFAULT 0 NOT NULL,
  PRIMARY KEY ("org_id", "bucket", "campaign_id", "channel", "purpose", "outcome", "state", "reason")
);--> statement-breakpoint
CREATE TABLE "report_touch_deltas" (
  "seq" bigserial NOT NULL,
  "org_id" text NOT NULL,
  "bucket" timestamp with time zone NOT NULL,
  "campaign_id" text NOT NULL,
  "channel" text NOT NULL,
  "purpose" text NOT NULL,
  "outcome" text NOT NULL,
  "state" text NOT NULL,
  "reason" text NOT NULL,
  "touches" bigint DEFAULT 0 NOT NULL,
  "placed" bigint DEFAULT 0 NOT NULL,
  "blocked" bigint DEFAULT 0 NOT NULL,
  "delivered" bigint DEFAULT 0 NOT NULL,
  "failed" bigint DEFAULT 0 NOT NULL
);--> statement-breakpoint
CREATE FUNCTION report_touch_outcome(p_placed boolean, p_dispatch text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN NOT p_placed THEN 'blocked'
    WHEN coalesce(p_dispatch, 'pending') = 'pending' THEN 'queued' ELSE p_dispatch END
$$;--> statement-breakpoint
CREATE FUNCTION report_touch_add(t outbound_touches, p_sign integer) RETURNS void LANGUAGE sql AS $$
  INSERT INTO report_touch_deltas (org_id, bucket, campaign_id, channel, purpose, outcome, state, reason,
    touches, placed, blocked, delivered, failed)
  SELECT t.org_id, report_quarter(t.decided_at), t.campaign_id, t.channel,
    coalesce(t.checks->'consent'->>'purpose', ''), o.outcome,
    coalesce(t.checks->'quiet_hours'->>'state', 'unknown'), r.reason,
    p_sign, p_sign * t.placed::int, p_sign * (NOT t.placed)::int,
    p_sign * (o.outcome = 'delivered')::int, p_sign * (o.outcome = 'failed')::int
  FROM (SELECT report_touch_outcome(t.placed, t.dispatch_status) AS outcome) o,
    (SELECT '' AS reason
     UNION ALL SELECT DISTINCT x->>'code' FROM jsonb_array_elements(t.reasons) x
     UNION ALL SELECT 'none' WHERE jsonb_array_length(t.reasons) = 0) r
$$;--> statement-breakpoint
CREATE FUNCTION report_on_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF report_touch_outcome(NEW.placed, NEW.dispatch_status)
       = report_touch_outcome(OLD.placed, OLD.dispatch_status) THEN RETURN NULL; END IF;
    PERFORM report_touch_add(OLD, -1);
  END IF;
  PERFORM report_touch_add(NEW, 1);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "report_touches_insert" AFTER INSERT ON "outbound_touches"
  FOR EACH ROW EXECUTE FUNCTION report_on_touch();--> statement-breakpoint
CREATE TRIGGER "report_touches_update" AFTER UPDATE OF "dispatch_status" ON "outbound_touches"
  FOR EACH ROW EXECUTE FUNCTION report_on_touch();--> statement-breakpoint

-- Folds up to p_limit deltas of each kind into the rollups, in one statement
-- each, so a report (one statement, one snapshot) sees every delta exactly once.
-- Returns how many were folded.
CREATE FUNCTION report_compact(p_limit integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE n1 integer; n2 integer;
BEGIN
  WITH moved AS (
    DELETE FROM report_traffic_deltas d
     USING (SELECT seq FROM report_traffic_deltas ORDER BY seq LIMIT p_limit) x
     WHERE d.seq = x.seq
    RETURNING d.*
  ), folded AS (
    INSERT INTO report_traffic_rollups AS r (grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number, sessions, sessions_shared, sessions_overflow, sessions_ambiguous, session_renewals, calls, calls_with_session, calls_on_shared_number, calls_first_time, calls_answered, calls_missed, calls_under_30s, calls_30s_to_2m, calls_2m_to_10m, calls_over_10m, buyer_reports, buyer_corrections, buyer_success, buyer_rejected, buyer_reported_calls, buyer_report_seconds_sum)
    SELECT grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number, sum(sessions), sum(sessions_shared), sum(sessions_overflow), sum(sessions_ambiguous), sum(session_renewals), sum(calls), sum(calls_with_session), sum(calls_on_shared_number), sum(calls_first_time), sum(calls_answered), sum(calls_missed), sum(calls_under_30s), sum(calls_30s_to_2m), sum(calls_2m_to_10m), sum(calls_over_10m), sum(buyer_reports), sum(buyer_corrections), sum(buyer_success), sum(buyer_rejected), sum(buyer_reported_calls), sum(buyer_report_seconds_sum)
      FROM moved GROUP BY grain, org_id, bucket, campaign_id, source, medium, utm_campaign, landing_path, attribution, tracking_number
    ON CONFLICT ("org_id", "grain", "bucket", "campaign_id", "source", "medium", "utm_campaign", "landing_path", "attribution", "tracking_number") DO UPDATE SET
    "sessions" = r."sessions" + excluded."sessions",
    "sessions_shared" = r."sessions_shared" + excluded."sessions_shared",
    "sessions_overflow" = r."sessions_overflow" + excluded."sessions_overflow",
    "sessions_ambiguous" = r."sessions_ambiguous" + excluded."sessions_ambiguous",
    "session_renewals" = r."session_renewals" + excluded."session_renewals",
    "calls" = r."calls" + excluded."calls",
    "calls_with_session" = r."calls_with_session" + excluded."calls_with_session",
    "calls_on_shared_number" = r."calls_on_shared_number" + excluded."calls_on_shared_number",
    "calls_first_time" = r."calls_first_time" + excluded."calls_first_time",
    "calls_answered" = r."calls_answered" + excluded."calls_answered",
    "calls_missed" = r."calls_missed" + excluded."calls_missed",
    "calls_under_30s" = r."calls_under_30s" + excluded."calls_under_30s",
    "calls_30s_to_2m" = r."calls_30s_to_2m" + excluded."calls_30s_to_2m",
    "calls_2m_to_10m" = r."calls_2m_to_10m" + excluded."calls_2m_to_10m",
    "calls_over_10m" = r."calls_over_10m" + excluded."calls_over_10m",
    "buyer_reports" = r."buyer_reports" + excluded."buyer_reports",
    "buyer_corrections" = r."buyer_corrections" + excluded."buyer_corrections",
    "buyer_success" = r."buyer_success" + excluded."buyer_success",
    "buyer_rejected" = r."buyer_rejected" + excluded."buyer_rejected",
    "buyer_reported_calls" = r."buyer_reported_calls" + excluded."buyer_reported_calls",
    "buyer_report_seconds_sum" = r."buyer_report_seconds_sum" + excluded."buyer_report_seconds_sum"
  )
  SELECT count(*) INTO n1 FROM moved;
  WITH moved AS (
    DELETE FROM report_touch_deltas d
     USING (SELECT seq FROM report_touch_deltas ORDER BY seq LIMIT p_limit) x
     WHERE d.seq = x.seq
    RETURNING d.*
  ), folded AS (
    INSERT INTO report_touch_rollups AS r (org_id, bucket, campaign_id, channel, purpose, outcome, state, reason, touches, placed, blocked, delivered, failed)
    SELECT org_id, bucket, campaign_id, channel, purpose, outcome, state, reason, sum(touches), sum(placed), sum(blocked), sum(delivered), sum(failed)
      FROM moved GROUP BY org_id, bucket, campaign_id, channel, purpose, outcome, state, reason
    ON CONFLICT ("org_id", "bucket", "campaign_id", "channel", "purpose", "outcome", "state", "reason") DO UPDATE SET
    "touches" = r."touches" + excluded."touches",
    "placed" = r."placed" + excluded."placed",
    "blocked" = r."blocked" + excluded."blocked",
    "delivered" = r."delivered" + excluded."delivered",
    "failed" = r."failed" + excluded."failed"
  )
  SELECT count(*) INTO n2 FROM moved;
  RETURN n1 + n2;
END
$$;--> statement-breakpoint

-- Every rollup of one organization computed again from its raw rows, for data
-- recorded before this migration and for a bulk load (npm run bench). Run it
-- while the organization records nothing. Renewal times are not kept on the
-- session, so its renewals (hits - 1) land in the cell of its creation here.
CREATE FUNCTION report_rebuild(p_org text) RETURNS void LANGUAGE plpgsql AS $$
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
$$;--> statement-breakpoint

SELECT report_rebuild(id) FROM orgs;--> statement-breakpoint
SELECT report_compact(2147483647);
