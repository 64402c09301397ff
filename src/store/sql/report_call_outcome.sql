-- What the carrier said about a call: answered, missed, or not yet known.
CREATE OR REPLACE FUNCTION report_call_outcome(p_status text, p_duration integer) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN p_status = 'completed' AND coalesce(p_duration, 0) > 0 THEN 'answered'
    WHEN p_status IN ('busy', 'no-answer', 'failed', 'canceled', 'completed') THEN 'missed'
    ELSE NULL END
$$;
