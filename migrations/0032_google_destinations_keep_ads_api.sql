-- google_ads destinations now default to Google's Data Manager API. Those that
-- exist were all made for the Google Ads API: their developer token and their
-- refresh token (granted the adwords scope, not datamanager) are for it, and an
-- account Google lets upload click conversions keeps doing so. They keep that
-- API, said explicitly; an operator moves one with PATCH settings.api.
UPDATE "conversion_destinations"
   SET "settings" = "settings" || '{"api":"google_ads_api"}'::jsonb
 WHERE "platform" = 'google_ads' AND NOT ("settings" ? 'api');
