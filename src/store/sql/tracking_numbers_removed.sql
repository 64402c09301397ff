-- Removing pool numbers closes the gaps in the slots, survivors keeping their
-- order, and gives the campaign its new pool size.
CREATE OR REPLACE FUNCTION tracking_numbers_removed() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_campaigns text[] := ARRAY(SELECT DISTINCT campaign_id FROM removed);
BEGIN
  UPDATE tracking_numbers n SET slot = r.s
    FROM (SELECT e164, (row_number() OVER (PARTITION BY campaign_id ORDER BY slot) - 1)::int AS s
            FROM tracking_numbers
           WHERE campaign_id = ANY (v_campaigns) AND role = 'pool') r
   WHERE n.e164 = r.e164 AND n.slot IS DISTINCT FROM r.s;
  UPDATE campaigns c
     SET pool_size = (SELECT count(*) FROM tracking_numbers n
                       WHERE n.campaign_id = c.id AND n.role = 'pool'),
         pool_full_until = NULL
   WHERE c.id = ANY (v_campaigns);
  RETURN NULL;
END
$$;

CREATE OR REPLACE TRIGGER tracking_numbers_removed AFTER DELETE ON "tracking_numbers"
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION tracking_numbers_removed();
