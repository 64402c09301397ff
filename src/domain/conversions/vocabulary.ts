/** The words of conversion uploads (contract §10): every schema and check derives from these. */
export const PLATFORMS = ['google_ads', 'meta', 'microsoft_ads', 'ga4'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const UPLOAD_STATUSES = [
  'pending',
  'sent',
  'failed',
  'retracted',
  'not_retractable',
] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

/** A conversion, or the retraction of one already sent (retractability.ts says where). */
export const UPLOAD_KINDS = ['conversion', 'retraction'] as const;
export type UploadKind = (typeof UPLOAD_KINDS)[number];

export const TRIGGER_EVENTS = ['buyer_success', 'answered_call'] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

/** The consent state a destination declares for its traffic, sent as each platform expects. */
export const CONSENT_STATES = ['granted', 'denied', 'unspecified'] as const;
export type ConsentState = (typeof CONSENT_STATES)[number];

/** How a google_ads destination reaches Google: the Data Manager API (default) or the Ads API. */
export const GOOGLE_APIS = ['data_manager', 'google_ads_api'] as const;
export type GoogleApi = (typeof GOOGLE_APIS)[number];

/**
 * Per platform: the non-secret settings (required, optional) and the secrets (required,
 * optional). Google's `developer_token` is required only with `api: "google_ads_api"`
 * (destinations.ts checks it); the Data Manager API takes none, and uses one when given for
 * retractions (docs/conversions.md).
 */
export const PLATFORM_FIELDS: Record<
  Platform,
  {
    settings: readonly string[];
    optionalSettings: readonly string[];
    secrets: readonly string[];
    optionalSecrets: readonly string[];
  }
> = {
  google_ads: {
    settings: ['customer_id', 'conversion_action'],
    optionalSettings: ['login_customer_id', 'time_zone', 'api', 'api_version', 'consent'],
    secrets: ['client_id', 'client_secret', 'refresh_token'],
    optionalSecrets: ['developer_token'],
  },
  meta: {
    settings: ['pixel_id'],
    optionalSettings: ['event_name', 'test_event_code', 'api_version', 'consent'],
    secrets: ['access_token'],
    optionalSecrets: [],
  },
  microsoft_ads: {
    settings: ['customer_id', 'account_id', 'conversion_name'],
    optionalSettings: ['time_zone', 'api_version', 'consent'],
    secrets: ['developer_token', 'client_id', 'client_secret', 'refresh_token'],
    optionalSecrets: [],
  },
  ga4: {
    settings: ['measurement_id'],
    optionalSettings: ['event_name', 'consent'],
    secrets: ['api_secret'],
    optionalSecrets: [],
  },
};

/**
 * Reason codes an upload can end with, and whether they are final. A retryable one is tried
 * again on the backoff schedule; a final one stays failed until an operator retries it.
 */
export const REASONS = {
  no_click_id: { final: true, words: 'the session carries no click id this platform accepts' },
  no_client_id: {
    final: true,
    words: 'no GA4 client id is known for the session (see docs/conversions.md)',
  },
  too_old: { final: true, words: "older than the platform's upload window" },
  rejected_before_upload: { final: true, words: 'the buyer rejected the call before upload' },
  rejected_by_buyer: { final: true, words: 'the buyer rejected the call' },
  already_counted: {
    final: true,
    words: 'GA4 already counted it, and would count it again (GA4 does not deduplicate this event)',
  },
  conversion_not_sent: { final: true, words: 'the conversion it retracts was never uploaded' },
  not_retractable: { final: true, words: 'this destination cannot retract a conversion' },
  EXPIRED_EVENT: { final: true, words: 'the click is older than the conversion window' },
  TOO_RECENT_EVENT: {
    final: false,
    words: 'the click is too recent for Google to accept yet (retried at the time Google names)',
  },
  TOO_RECENT_CONVERSION_ACTION: {
    final: false,
    words:
      'the conversion action was created too recently for Google to accept uploads yet (retried at the time Google names)',
  },
  not_held: {
    final: true,
    words: 'the platform holds no such conversion, so there is nothing to retract',
  },
  CLICK_NOT_FOUND: { final: true, words: 'Google does not know this click id' },
  CONVERSION_PRECEDES_EVENT: { final: true, words: 'the conversion time precedes the click' },
  awaiting_confirmation: {
    final: false,
    words:
      'Google accepted the request and has not yet reported processing it (checked again later)',
  },
  processed_in_part: {
    final: false,
    words:
      'Google processed the request in part without naming which events failed: each is sent again alone (Google keeps the one it holds once)',
  },
  rate_limited: { final: false, words: 'the platform asked us to slow down' },
  server_error: { final: false, words: 'the platform answered with a server error' },
  network_error: { final: false, words: 'the platform could not be reached' },
  no_answer: {
    final: false,
    words: 'the request was sent but no complete answer came back (retried with the same key)',
  },
  answer_too_large: {
    final: false,
    words: 'the platform answered more than this service reads (retried)',
  },
  redirected: {
    final: true,
    words: 'the platform answered with a redirect, which is not followed (check the base URL)',
  },
  token_unavailable: { final: false, words: "the platform's token endpoint failed (retried)" },
  auth_failed: { final: true, words: 'the platform refused the credentials' },
  rejected_by_platform: { final: true, words: 'the platform rejected the conversion' },
  gave_up: { final: true, words: 'gave up after too many attempts' },
} as const;
export type ReasonCode = keyof typeof REASONS;

/**
 * Reasons whose attempt may have reached the platform unanswered: the platform may hold the
 * conversion (a 5xx can follow a write, a dropped connection can follow one), so the row is
 * marked maybe_applied and a `rejected` report retracts it whatever its status.
 */
export const MAYBE_APPLIED_REASONS: ReadonlySet<ReasonCode> = new Set([
  'server_error',
  'no_answer',
  'answer_too_large',
]);

/**
 * Final failures that are not news for a webhook: nothing was uploaded that needs undoing
 * (not_held), or a retraction was never sent because its destination cannot retract, which its
 * conversion then reads (not_retractable), as a Meta or GA4 conversion does with no webhook.
 */
export const QUIET_REASONS: ReadonlySet<ReasonCode> = new Set(['not_held', 'not_retractable']);

/**
 * How old a conversion each platform still takes (backfill skips older calls as too_old):
 * Google's longest click-through window (90 days), Meta's event_time limit (7 days),
 * Microsoft's offline conversion window (90 days), the Measurement Protocol's 72 hours.
 */
export const UPLOAD_WINDOW_MS: Record<Platform, number> = {
  google_ads: 90 * 86_400_000,
  meta: 7 * 86_400_000,
  microsoft_ads: 90 * 86_400_000,
  ga4: 72 * 3_600_000,
};
