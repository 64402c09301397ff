import Type, { type Static } from 'typebox';
import { Detail, tenantErrors } from '../common.js';

const nullableString = (maxLength: number, description: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()], { description }));

export const DniSessionBody = Type.Object(
  {
    campaign_code: Type.String({ minLength: 1, maxLength: 3 }),
    visitor_id: Type.String({
      minLength: 1,
      maxLength: 256,
      description: 'Your stable id for the visitor',
    }),
    fbc: nullableString(512, 'Meta click cookie (_fbc)'),
    fbp: nullableString(512, 'Meta browser cookie (_fbp)'),
    gclid: nullableString(512, 'Google Ads click id'),
    landing_url: nullableString(
      2048,
      'Landing page URL; UTM parameters and click ids in it are stored',
    ),
  },
  { additionalProperties: false },
);
export type DniSessionBody = Static<typeof DniSessionBody>;

export const DniSessionResponse = Type.Object({
  tracking_number: Type.String({ description: 'E.164 number to show the visitor' }),
  dni_session_id: Type.String(),
  expires_at: Type.String({ format: 'date-time', description: 'ISO 8601 UTC' }),
});

export const dniSessionSchema = {
  summary: 'Create a DNI session',
  description:
    'Gives the visitor a tracking number from the campaign pool. A visitor with a live session gets the same number back and its expiry extended.',
  tags: ['dni'],
  body: DniSessionBody,
  response: {
    201: DniSessionResponse,
    ...tenantErrors(['campaign_not_found']),
    429: Detail(['rate_limited'], 'Session creation rate limit exceeded; see Retry-After'),
  },
};
