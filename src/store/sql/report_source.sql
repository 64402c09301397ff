-- The source of a session (contract §8): utm_source, else the click id's network, else direct.
CREATE OR REPLACE FUNCTION report_source(
  p_utm_source text, p_gclid text, p_gbraid text, p_wbraid text, p_fbclid text, p_fbc text, p_msclkid text
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN nullif(btrim(p_utm_source), '') IS NOT NULL THEN lower(btrim(p_utm_source))
    WHEN coalesce(nullif(p_gclid, ''), nullif(p_gbraid, ''), nullif(p_wbraid, '')) IS NOT NULL THEN 'google'
    WHEN coalesce(nullif(p_fbclid, ''), nullif(p_fbc, '')) IS NOT NULL THEN 'meta'
    WHEN nullif(p_msclkid, '') IS NOT NULL THEN 'microsoft'
    ELSE 'direct' END
$$;
