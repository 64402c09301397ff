import Type from 'typebox';
import { type HeaderName, type Named, reply } from './openapi.js';

export { withDefault } from '../domain/schema.js';

/** `{"detail":"<code>"}`: the body of 401, 403, 404, 409, 413, 429 and 503, named `$id`. */
export const Detail = ($id: string, codes: [string, ...string[]], description: string): Named =>
  Type.Object(
    {
      detail:
        codes.length === 1 ? Type.Literal(codes[0]) : Type.Union(codes.map((c) => Type.Literal(c))),
    },
    { $id, description, examples: [{ detail: codes[0] }] },
  );

export const ValidationError = Type.Object(
  {
    type: Type.String({ title: 'Error Type', description: 'Pydantic error type, e.g. `missing`' }),
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()]), {
      title: 'Location',
      description: 'Where: `["body", field, …]` or `["path", "campaign_code"]`',
    }),
    msg: Type.String({ title: 'Message' }),
    input: Type.Optional(
      Type.Unknown({ title: 'Input', description: 'The value that failed, any JSON value' }),
    ),
    ctx: Type.Optional(
      Type.Object(
        {},
        {
          title: 'Context',
          description: 'Parameters of the rule that failed, e.g. `{"max_length": 3}`',
          additionalProperties: true,
        },
      ),
    ),
  },
  { $id: 'ValidationError', title: 'ValidationError' },
);

export const HTTPValidationError = Type.Object(
  { detail: Type.Optional(Type.Array(Type.Ref('ValidationError'), { title: 'Detail' })) },
  {
    $id: 'HTTPValidationError',
    title: 'HTTPValidationError',
    description: 'Validation Error (FastAPI / Pydantic v2 shape): every failing field is listed',
    examples: [
      {
        detail: [
          {
            type: 'string_too_long',
            loc: ['body', 'campaign_code'],
            msg: 'String should have at most 3 characters',
            input: 'toolong',
            ctx: { max_length: 3 },
          },
          {
            type: 'missing',
            loc: ['body', 'visitor_id'],
            msg: 'Field required',
            input: { campaign_code: 'toolong' },
          },
        ],
      },
    ],
  },
);

export const CampaignCodeParams = Type.Object({
  campaign_code: Type.String({ minLength: 1, maxLength: 3, description: 'The campaign code' }),
});

export const InvalidApiKeyError = Detail(
  'InvalidApiKeyError',
  ['invalid_api_key'],
  'Missing, malformed, unknown, revoked or expired key: one body for all',
);
export const ForbiddenError = Detail(
  'ForbiddenError',
  ['tracking_disabled', 'insufficient_scope'],
  'API access is off for the organization, or the key lacks the scope',
);
export const PayloadTooLargeError = Detail(
  'PayloadTooLargeError',
  ['payload_too_large'],
  'The body is over 64 KiB',
);
export const CampaignNotFoundError = Detail(
  'CampaignNotFoundError',
  ['campaign_not_found'],
  "No such campaign in the caller's organization (another organization's campaign answers the same)",
);
export const ServiceUnavailableError = Detail(
  'ServiceUnavailableError',
  ['service_unavailable'],
  'A dependency of the service (its database, its disk) failed; nothing was stored. Retry after Retry-After seconds',
);

export const BodyUndecodableError = Detail(
  'BodyUndecodableError',
  ['There was an error parsing the body'],
  "FastAPI's answer to a body it cannot read",
);
export const InternalServerError = Detail(
  'InternalServerError',
  ['Internal Server Error'],
  'An unexpected failure, logged with the request id; the operation was not carried out',
);

/** The failures every tenant endpoint shares; `counted` names the headers of a rate-limited one. */
export function tenantErrors(notFound: Named, counted: HeaderName[] = []) {
  return {
    401: reply('Missing, malformed, unknown, revoked or expired key', InvalidApiKeyError, {
      headers: ['WWW-Authenticate'],
    }),
    403: reply(
      'API access is off for the organization (`tracking_disabled`), or the key lacks the scope (`insufficient_scope`)',
      ForbiddenError,
    ),
    404: reply("Not found in the caller's organization", notFound, { headers: counted }),
    413: reply('Body over 64 KiB; nothing was read or stored', PayloadTooLargeError, {
      headers: counted,
    }),
    400: reply(
      'The body could not be read (a bad Content-Length, an unreadable encoding); nothing was stored',
      BodyUndecodableError,
      { headers: counted },
    ),
    422: reply(
      'Validation error (FastAPI / Pydantic v2 shape); nothing was stored',
      HTTPValidationError,
      { headers: ['X-Error-Hint', ...counted] },
    ),
    503: reply(
      'A dependency failed (database unreachable, connection lost, disk full); nothing was stored',
      ServiceUnavailableError,
      // A request counted before the dependency failed keeps its budget headers.
      { headers: ['Retry-After', ...counted] },
    ),
    500: reply(
      'An unexpected failure (a bug), logged with the request id; nothing was stored',
      InternalServerError,
      { headers: counted },
    ),
  };
}

/** The errors of every tenant endpoint, for `app.addSchema`. */
export const commonSchemas: Named[] = [
  ValidationError,
  HTTPValidationError,
  InvalidApiKeyError,
  ForbiddenError,
  PayloadTooLargeError,
  CampaignNotFoundError,
  ServiceUnavailableError,
  InternalServerError,
  BodyUndecodableError,
];

export const bearerSecurity = [{ bearerAuth: [] }];
