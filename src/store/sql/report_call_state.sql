-- A call's counters that change after it is recorded (carrier status, latest
-- buyer disposition), times p_sign: -1 for the old row, +1 for the new.
CREATE OR REPLACE FUNCTION report_call_state(c calls, p_sign integer) RETURNS bigint[]
LANGUAGE sql IMMUTABLE AS $$
  SELECT ARRAY[0, 0, 0, 0, 0, 0, 0, 0, 0, (report_call_outcome(c.status, c.duration_seconds) IS NOT DISTINCT FROM 'answered')::int * p_sign, (report_call_outcome(c.status, c.duration_seconds) IS NOT DISTINCT FROM 'missed')::int * p_sign, (report_call_band(c.status, c.duration_seconds) IS NOT DISTINCT FROM 0)::int * p_sign, (report_call_band(c.status, c.duration_seconds) IS NOT DISTINCT FROM 1)::int * p_sign, (report_call_band(c.status, c.duration_seconds) IS NOT DISTINCT FROM 2)::int * p_sign, (report_call_band(c.status, c.duration_seconds) IS NOT DISTINCT FROM 3)::int * p_sign, 0, 0, (c.disposition IS NOT DISTINCT FROM 'success')::int * p_sign, (c.disposition IS NOT DISTINCT FROM 'rejected')::int * p_sign, 0, 0]::bigint[]
$$;
