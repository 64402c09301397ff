-- A free number of the campaign's pool for a new visitor at p_now, locked
-- FOR UPDATE, or null when none is free. Free: not held by a live session
-- (held_until), not locked by another transaction (SKIP LOCKED: never wait for
-- one while holding others, the lock order's rule in dni_open_sessions), and
-- not among p_skip (the numbers of sessions decided and not written yet).
--
-- The clock: each pool number has a dense slot and the campaign a hand (the
-- sequence dni_clock_name names). The slot under the hand is taken if free,
-- else the next ones, up to eight; a crowded pool then takes the first free
-- slot after the hand, wrapping round (migrations/0017_dni_clock.sql says
-- why a clock).
--
-- Runs inside dni_open_sessions, under its planner settings.
CREATE OR REPLACE FUNCTION dni_pick_free_number(
  p_campaign text, p_size integer, p_now timestamptz, p_skip text[]
) RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
  v_clock regclass := dni_clock_name(p_campaign)::regclass;
  v_slot integer;
  v_num text;
BEGIN
  FOR k IN 1 .. LEAST(p_size, 8) LOOP
    v_slot := nextval(v_clock) % p_size;
    SELECT t.e164 INTO v_num FROM tracking_numbers t
     WHERE t.campaign_id = p_campaign AND t.role = 'pool' AND t.slot = v_slot
       AND (t.held_until IS NULL OR t.held_until <= p_now) AND t.e164 <> ALL (p_skip)
     FOR UPDATE SKIP LOCKED;
    IF FOUND THEN
      RETURN v_num;
    END IF;
  END LOOP;
  IF p_size <= 8 THEN
    RETURN NULL;
  END IF;

  SELECT t.e164 INTO v_num FROM tracking_numbers t
   WHERE t.campaign_id = p_campaign AND t.role = 'pool' AND t.slot > v_slot
     AND (t.held_until IS NULL OR t.held_until <= p_now) AND t.e164 <> ALL (p_skip)
   ORDER BY t.slot LIMIT 1
   FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN
    SELECT t.e164 INTO v_num FROM tracking_numbers t
     WHERE t.campaign_id = p_campaign AND t.role = 'pool' AND t.slot <= v_slot
       AND (t.held_until IS NULL OR t.held_until <= p_now) AND t.e164 <> ALL (p_skip)
     ORDER BY t.slot LIMIT 1
     FOR UPDATE SKIP LOCKED;
  END IF;
  RETURN v_num;
END
$$;
