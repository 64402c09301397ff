-- A lowercased source's network name (docs/reporting.md#sources): the names a
-- network goes by are one source. The same table as SOURCE_ALIASES in
-- src/domain/reports/sources.ts.
CREATE OR REPLACE FUNCTION report_source_alias(p_source text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE p_source
    WHEN 'facebook' THEN 'meta'
    WHEN 'fb' THEN 'meta'
    WHEN 'bing' THEN 'microsoft'
    ELSE p_source END
$$;
