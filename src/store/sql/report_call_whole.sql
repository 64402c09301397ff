-- Everything a call has added to its cell so far (its count, its facts, its
-- carrier and buyer state, its buyer reports), read from the call, its facts
-- row and its buyer report events: what moves when the call changes cells
-- (the buyer who answered it is set after it was recorded).
CREATE OR REPLACE FUNCTION report_call_whole(c calls, f report_calls) RETURNS bigint[]
-- PL/pgSQL, so its plan is kept for the connection: a SQL function called from a trigger is
-- planned again in each transaction (about 0.8 ms of the server's time at every answered call).
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (SELECT (SELECT array_agg(a + b ORDER BY o) FROM unnest(
      ARRAY[0, 0, 0, 0, 0, 1, (c.dni_session_id IS NOT NULL)::int, c.ambiguous::int, f.first_time::int,
        0, 0, 0, 0, 0, 0, e.n, greatest(e.n - 1, 0), 0, 0, (e.n > 0)::int,
        coalesce(floor(extract(epoch FROM e.first_at - c.started_at))::bigint, 0), 0, 0, 0]::bigint[],
      report_call_state(c, 1)) WITH ORDINALITY AS u(a, b, o))
    FROM (SELECT count(*) AS n, min(b.at) AS first_at FROM buyer_report_events b WHERE b.call_id = c.id) e);
END
$$;
