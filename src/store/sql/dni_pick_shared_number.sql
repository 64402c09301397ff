-- The number a new visitor shares when the campaign's pool has none free and
-- no overflow number: of the 16 slots from p_slot (the hand), wrapping round
-- the pool's end, the number assigned longest ago that no other transaction
-- holds and that is not among p_skip (the numbers of sessions decided and not
-- written yet); locked FOR UPDATE; null when there is none. Not simply the number under the hand: a crowded search takes free
-- numbers beyond the hand without moving it, so the numbers just ahead of it
-- may have been handed out a moment ago, to visitors still on the page (the
-- simulator measured 1-3 points of accuracy lost that way on tight pools;
-- docs/pool-sizing.md).
--
-- One statement reads the 16 by the slot index, in the order to share them,
-- and LockRows locks the first that no other transaction holds; the LIMIT
-- stops there. Always ranges of the slot index: without statistics the
-- planner kept a list (`slot = ANY (…)`) or `one range OR the other` out of
-- the index condition and read the campaign's whole pool
-- (test/http/dni-plans.test.ts reads these plans).
--
-- Runs inside dni_open_sessions, under its planner settings.
CREATE OR REPLACE FUNCTION dni_pick_shared_number(
  p_campaign text, p_size integer, p_slot integer, p_skip text[]
) RETURNS text
LANGUAGE plpgsql
AS $$
DECLARE
  v_num text;
BEGIN
  IF p_slot + 15 < p_size THEN
    SELECT t.e164 INTO v_num FROM tracking_numbers t
     WHERE t.campaign_id = p_campaign AND t.role = 'pool'
       AND t.slot BETWEEN p_slot AND p_slot + 15 AND t.e164 <> ALL (p_skip)
     ORDER BY t.last_assigned_at NULLS FIRST, t.slot
     LIMIT 1
     FOR UPDATE SKIP LOCKED;
  ELSE
    -- Wrapping round the pool's end (or a pool of 16 or fewer): two ranges,
    -- each by the slot index, then the numbers by key.
    SELECT t.e164 INTO v_num FROM tracking_numbers t
     WHERE t.e164 = ANY (ARRAY(
             SELECT t1.e164 FROM tracking_numbers t1
              WHERE t1.campaign_id = p_campaign AND t1.role = 'pool'
                AND t1.slot BETWEEN p_slot AND p_slot + 15
             UNION ALL
             SELECT t2.e164 FROM tracking_numbers t2
              WHERE t2.campaign_id = p_campaign AND t2.role = 'pool'
                AND t2.slot BETWEEN 0 AND p_slot + 15 - p_size))
       AND t.e164 <> ALL (p_skip)
     ORDER BY t.last_assigned_at NULLS FIRST, t.slot
     LIMIT 1
     FOR UPDATE SKIP LOCKED;
  END IF;
  RETURN v_num;
END
$$;
