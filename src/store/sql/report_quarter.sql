-- The UTC quarter hour of an instant: the cell of every report rollup
-- (migrations/0022_reporting.sql says why quarter hours).
CREATE OR REPLACE FUNCTION report_quarter(p_at timestamptz) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT date_bin('15 minutes', p_at, TIMESTAMPTZ '2000-01-01 00:00:00+00')
$$;
