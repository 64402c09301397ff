-- One clock hand per campaign.
CREATE OR REPLACE FUNCTION dni_clock_name(p_campaign text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$ SELECT 'dni_clock_' || md5(p_campaign) $$;
