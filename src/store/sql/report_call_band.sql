-- The duration band of an answered call: under 30 s, to 2 min, to 10 min, over.
CREATE OR REPLACE FUNCTION report_call_band(p_status text, p_duration integer) RETURNS integer
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN report_call_outcome(p_status, p_duration) <> 'answered' OR p_status IS NULL THEN NULL
    WHEN p_duration < 30 THEN 0 WHEN p_duration < 120 THEN 1 WHEN p_duration < 600 THEN 2 ELSE 3 END
$$;
