import Type, { type TSchema } from 'typebox';

/** `{"detail":"<code>"}`: 401, 403, 404, 409, 413, 429 and 501 bodies. */
export const Detail = (codes: string[], description: string) =>
  Type.Object({ detail: Type.Union(codes.map((c) => Type.Literal(c))) }, { description });

const ValidationError = Type.Object(
  {
    type: Type.String({ title: 'Error Type' }),
    loc: Type.Array(Type.Union([Type.String(), Type.Integer()]), { title: 'Location' }),
    msg: Type.String({ title: 'Message' }),
    input: Type.Optional(Type.Unknown({ title: 'Input' })),
    ctx: Type.Optional(Type.Object({}, { title: 'Context' })),
  },
  { title: 'ValidationError' },
);

export const HTTPValidationError = Type.Object(
  { detail: Type.Optional(Type.Array(ValidationError, { title: 'Detail' })) },
  { title: 'HTTPValidationError', description: 'Validation Error (FastAPI / Pydantic v2 shape)' },
);

export const CampaignCodeParams = Type.Object({
  campaign_code: Type.String({ minLength: 1, maxLength: 3, description: 'The campaign code' }),
});

/** The failures every tenant endpoint shares (contract §2). */
export function tenantErrors(extra404: string[]): Record<string, TSchema> {
  return {
    401: Detail(['invalid_api_key'], 'Missing, malformed, unknown, revoked or expired key'),
    403: Detail(
      ['tracking_disabled', 'insufficient_scope'],
      'API access off for the organization, or the key lacks the scope',
    ),
    404: Detail(extra404, "Not found in the caller's organization"),
    413: Detail(['payload_too_large'], 'Body over 64 KiB'),
    422: HTTPValidationError,
  };
}

export const bearerSecurity = [{ bearerAuth: [] }];
