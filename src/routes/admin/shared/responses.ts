import Type, { type TSchema } from 'typebox';
import { header, requestIdHeader, wwwAuthenticateHeader } from '../../openapi.js';

/**
 * The responses an admin route's OpenAPI description names: the headers a client may read
 * and the error bodies every route may answer, by status.
 */

/** Every header the admin API sends that a client may read, as OpenAPI response headers. */
export const adminHeaders = {
  'X-Request-Id': requestIdHeader(),
  'WWW-Authenticate': wwwAuthenticateHeader,
  'Retry-After': header('Seconds to wait before trying again.', {
    type: 'integer',
    minimum: 1,
  }),
  'X-Error-Hint': header(
    'Why a body was read as text (a missing or non-JSON Content-Type): the 422 body keeps FastAPI’s shape, the reason is here.',
  ),
  'Content-Disposition': header('`attachment; filename="…"`: the file name to save the body as.'),
  'X-Export-Candidates': header('Calls in the window that could be exported.', {
    type: 'integer',
    minimum: 0,
  }),
  'X-Export-Rows': header('Rows in the file.', { type: 'integer', minimum: 0 }),
  'X-Export-Skipped-No-Click-Id': header('Calls left out: their visit had no click id.', {
    type: 'integer',
    minimum: 0,
  }),
  'X-Export-Skipped-Too-Old': header('Calls left out: older than the platform accepts.', {
    type: 'integer',
    minimum: 0,
  }),
};
export type AdminHeader = keyof typeof adminHeaders;

export const headersOf = (names: AdminHeader[]) =>
  Object.fromEntries(['X-Request-Id' as const, ...names].map((n) => [n, adminHeaders[n]]));

const codes = (description: string, detail: string[], extra: Record<string, TSchema> = {}) =>
  Type.Object(
    { detail: Type.Unsafe<string>({ type: 'string', enum: detail }), ...extra },
    { description, additionalProperties: false },
  );

/** FastAPI's 422 body (fastapi-422-parity.md). */
const ValidationErrorBody = Type.Object(
  {
    detail: Type.Array(
      Type.Object(
        {
          type: Type.String({ examples: ['missing'] }),
          loc: Type.Array(Type.Union([Type.String(), Type.Integer()])),
          msg: Type.String(),
          input: Type.Optional(Type.Unknown({ description: 'The offending input, as sent' })),
          ctx: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** The 404 codes of the admin API (src/errors.ts). */
const NOT_FOUND = [
  'org_not_found',
  'key_not_found',
  'campaign_not_found',
  'call_not_found',
  'number_not_found',
  'touch_not_found',
  'suppression_entry_not_found',
  'webhook_not_found',
  'event_not_found',
  'destination_not_found',
  'buyer_not_found',
  'upload_not_found',
];

const error = (description: string, schema: TSchema, headers: AdminHeader[] = []) => ({
  description,
  schema,
  headers,
});

/** The error answers, by status: description, body schema, headers. */
export const ERRORS = {
  400: error(
    'The body could not be read (a bad Content-Length, an empty JSON body…)',
    codes('Unreadable body', ['There was an error parsing the body']),
  ),
  401: error(
    'No admin token, or not this server’s',
    codes('Bad credential', ['invalid_admin_token']),
    ['WWW-Authenticate'],
  ),
  404: error('No such organization, or no such item in it', codes('Not found', NOT_FOUND)),
  409: error(
    'The change clashes with what is stored; `reason` says with what',
    codes('Conflict', ['conflict'], { reason: Type.String() }),
  ),
  413: error(
    'The body is larger than this route accepts',
    codes('Too large', ['payload_too_large']),
  ),
  415: error(
    'The body is not of a media type this route reads',
    codes('Unsupported media type', ['unsupported_media_type']),
  ),
  422: error('Bad input, in FastAPI’s shape: every failing field', ValidationErrorBody, [
    'X-Error-Hint',
  ]),
  500: error(
    'An unexpected failure (a bug), logged with the request id; nothing was changed',
    codes('Internal error', ['Internal Server Error']),
  ),
  503: error(
    'A dependency is down (the store), or SECRETS_KEY is not set: try again after Retry-After',
    codes('Unavailable', ['service_unavailable', 'secrets_key_not_configured']),
    ['Retry-After'],
  ),
};
export type ErrorStatus = keyof typeof ERRORS;
