-- The path of a landing URL, without query or fragment ('/' when empty; null without a URL).
CREATE OR REPLACE FUNCTION report_path(p_url text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN nullif(p_url, '') IS NULL THEN NULL
    WHEN p_url ~ '^[A-Za-z][A-Za-z0-9+.-]*://'
      THEN coalesce(nullif(substring(p_url FROM '^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*([^?#]*)'), ''), '/')
    ELSE coalesce(nullif(substring(p_url FROM '^([^?#]*)'), ''), '/') END
$$;
