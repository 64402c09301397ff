/**
 * The error catalogue: every error the service answers with, and its status.
 * Domain code throws these; only src/http/error-handler.ts renders them.
 */

/** One entry of FastAPI's `{"detail": [...]}`; keys are created in Pydantic's order. */
export interface PydanticError {
  type: string;
  loc: (string | number)[];
  msg: string;
  /** The offending input as validated: a `PyValue` (rendered with `dumpsPy`). */
  input: unknown;
  ctx?: Record<string, unknown>;
}

const catalogue = {
  invalid_api_key: 401,
  invalid_admin_token: 401,
  invalid_metrics_token: 401,
  tracking_disabled: 403,
  insufficient_scope: 403,
  forbidden: 403,
  invalid_csrf_token: 403,
  invalid_signature: 403,
  campaign_not_found: 404,
  call_not_found: 404,
  org_not_found: 404,
  key_not_found: 404,
  number_not_found: 404,
  touch_not_found: 404,
  suppression_entry_not_found: 404,
  webhook_not_found: 404,
  event_not_found: 404,
  destination_not_found: 404,
  upload_not_found: 404,
  buyer_not_found: 404,
  'Not Found': 404,
  'Method Not Allowed': 405,
  idempotency_key_in_use: 409,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  'There was an error parsing the body': 400,
  invalid_carrier_request: 400,
  // Answered by the HTTP layer itself (src/http/protocol-errors.ts), before any route runs.
  bad_request: 400,
  invalid_url_encoding: 400,
  request_timeout: 408,
  uri_too_long: 414,
  request_header_fields_too_large: 431,
  'Internal Server Error': 500,
  not_implemented: 501,
  service_unavailable: 503,
  carrier_not_configured: 503,
  secrets_key_not_configured: 503,
} as const;

export type ErrorCode = keyof typeof catalogue;

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly headers: Record<string, string> = {},
    /** Extra fields beside `detail`, for admin conflicts that say what clashed. */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(code);
    this.status = catalogue[code];
  }
}

/** Seconds a client is asked to wait before trying again after a dependency failed. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 2;

/** A dependency's failure as the catalogue names it, and the code to log (a SQLSTATE, an errno). */
export interface DependencyFailure {
  error: AppError;
  code: string | undefined;
}

/**
 * How the part that talks to a dependency names its failures, translated once there: the
 * store's (`translateStoreFailure`, src/store/errors.ts) reaches the HTTP layer through
 * `AppDeps.storeFailure`. Null for anything it does not recognise (a bug stays a 500).
 */
export type FailureTranslator = (err: unknown) => DependencyFailure | null;

/** 422: the request failed validation; `errors` are already in Pydantic's shape. */
export class ValidationFailed extends Error {
  readonly status = 422;
  constructor(readonly errors: PydanticError[]) {
    super('validation failed');
  }
}

export const errors = {
  invalidApiKey: () => new AppError('invalid_api_key', { 'www-authenticate': 'Bearer' }),
  invalidAdminToken: () => new AppError('invalid_admin_token', { 'www-authenticate': 'Bearer' }),
  invalidMetricsToken: () =>
    new AppError('invalid_metrics_token', { 'www-authenticate': 'Bearer' }),
  trackingDisabled: () => new AppError('tracking_disabled'),
  insufficientScope: () => new AppError('insufficient_scope'),
  /** The console: the user may see this organization but not change it (a viewer). */
  forbidden: () => new AppError('forbidden'),
  invalidCsrfToken: () => new AppError('invalid_csrf_token'),
  campaignNotFound: () => new AppError('campaign_not_found'),
  callNotFound: () => new AppError('call_not_found'),
  orgNotFound: () => new AppError('org_not_found'),
  keyNotFound: () => new AppError('key_not_found'),
  numberNotFound: () => new AppError('number_not_found'),
  touchNotFound: () => new AppError('touch_not_found'),
  suppressionEntryNotFound: () => new AppError('suppression_entry_not_found'),
  webhookNotFound: () => new AppError('webhook_not_found'),
  eventNotFound: () => new AppError('event_not_found'),
  destinationNotFound: () => new AppError('destination_not_found'),
  uploadNotFound: () => new AppError('upload_not_found'),
  buyerNotFound: () => new AppError('buyer_not_found'),
  routeNotFound: () => new AppError('Not Found'),
  methodNotAllowed: (allow: string[]) =>
    new AppError('Method Not Allowed', { allow: allow.join(', ') }),
  conflict: (what: string) => new AppError('conflict', {}, { reason: what }),
  idempotencyKeyInUse: () => new AppError('idempotency_key_in_use'),
  payloadTooLarge: () => new AppError('payload_too_large'),
  unsupportedMediaType: () => new AppError('unsupported_media_type'),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError('rate_limited', { 'retry-after': String(retryAfterSeconds) }),
  bodyUndecodable: () => new AppError('There was an error parsing the body'),
  internal: () => new AppError('Internal Server Error'),
  notImplemented: () => new AppError('not_implemented'),
  /** A dependency failed (store, disk): the client may try again after `Retry-After`. */
  unavailable: (retryAfterSeconds = DEPENDENCY_RETRY_AFTER_SECONDS) =>
    new AppError('service_unavailable', { 'retry-after': String(retryAfterSeconds) }),
  /** A request that arrives while the process stops: try again (on another instance) shortly. */
  shuttingDown: () =>
    new AppError('service_unavailable', { 'retry-after': '1', connection: 'close' }),
  badRequest: () => new AppError('bad_request'),
  invalidUrlEncoding: () => new AppError('invalid_url_encoding'),
  requestTimeout: () => new AppError('request_timeout', { connection: 'close' }),
  uriTooLong: () => new AppError('uri_too_long', { connection: 'close' }),
  headerFieldsTooLarge: () =>
    new AppError('request_header_fields_too_large', { connection: 'close' }),
  invalidSignature: () => new AppError('invalid_signature'),
  invalidCarrierRequest: (missing: string[]) =>
    new AppError('invalid_carrier_request', {}, { missing }),
  carrierNotConfigured: () => new AppError('carrier_not_configured'),
  /** Destination secrets cannot be sealed or opened without SECRETS_KEY. */
  secretsKeyMissing: () => new AppError('secrets_key_not_configured', { 'retry-after': '3600' }),
  /** A single field error, for checks that need the database (report window, reused ids). */
  field: (loc: (string | number)[], msg: string, input: unknown) =>
    new ValidationFailed([
      { type: 'value_error', loc, msg: `Value error, ${msg}`, input, ctx: { error: {} } },
    ]),
  /** Several field errors at once, each a Pydantic `value_error`. */
  fields: (problems: { loc: (string | number)[]; msg: string; input: unknown }[]) =>
    new ValidationFailed(
      problems.map((p) => ({
        type: 'value_error',
        loc: p.loc,
        msg: `Value error, ${p.msg}`,
        input: p.input,
        ctx: { error: {} },
      })),
    ),
};
