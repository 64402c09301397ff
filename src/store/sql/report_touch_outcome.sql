-- A touch's outcome in the reports: blocked, queued, or its dispatch status.
CREATE OR REPLACE FUNCTION report_touch_outcome(p_placed boolean, p_dispatch text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN NOT p_placed THEN 'blocked'
    WHEN coalesce(p_dispatch, 'pending') = 'pending' THEN 'queued' ELSE p_dispatch END
$$;
