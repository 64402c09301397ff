-- The source of a session (contract §8): utm_source, else the click id's network, else direct.
-- utm_source is folded (docs/reporting.md#sources): runs of spaces, tabs and line breaks made one
-- space and trimmed, lowercased, and a network's other names made its click-id name.
CREATE OR REPLACE FUNCTION report_source(
  p_utm_source text, p_gclid text, p_gbraid text, p_wbraid text, p_fbclid text, p_fbc text, p_msclkid text
) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN nullif(btrim(regexp_replace(p_utm_source, '[ \t\r\n]+', ' ', 'g'), ' '), '') IS NOT NULL
      THEN report_source_alias(lower(btrim(regexp_replace(p_utm_source, '[ \t\r\n]+', ' ', 'g'), ' ')))
    WHEN coalesce(nullif(p_gclid, ''), nullif(p_gbraid, ''), nullif(p_wbraid, '')) IS NOT NULL THEN 'google'
    WHEN coalesce(nullif(p_fbclid, ''), nullif(p_fbc, '')) IS NOT NULL THEN 'meta'
    WHEN nullif(p_msclkid, '') IS NOT NULL THEN 'microsoft'
    ELSE 'direct' END
$$;
