import Type, { type Static } from 'typebox';
import { CampaignNotFoundError, Detail, tenantErrors } from '../common.js';
import { type Named, ref, reply } from '../openapi.js';

const nullableString = (maxLength: number, description: string) =>
  Type.Optional(Type.Union([Type.String({ maxLength }), Type.Null()], { description }));

export const DniSessionBody = Type.Object(
  {
    campaign_code: Type.String({ minLength: 1, maxLength: 3, description: 'The campaign code' }),
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
  {
    $id: 'DniSessionRequest',
    additionalProperties: false,
    examples: [
      {
        campaign_code: 'abc',
        visitor_id: 'v-7f3c2a',
        gclid: 'EAIaIQobChMI',
        landing_url: 'https://www.example.org/?utm_source=google&gclid=EAIaIQobChMI',
      },
    ],
  },
);
export type DniSessionBody = Static<typeof DniSessionBody>;

export const DniSessionResponse = Type.Object(
  {
    tracking_number: Type.String({ description: 'E.164 number to show the visitor' }),
    dni_session_id: Type.String({ description: 'The session (ds_…)' }),
    expires_at: Type.String({
      format: 'date-time',
      description: 'ISO 8601 UTC; each repeat request for the visitor moves it later',
    }),
  },
  {
    $id: 'DniSession',
    examples: [
      {
        tracking_number: '+14155550123',
        dni_session_id: 'ds_019caf10c2a87b3e9d1f4a6b5c8e7d20',
        expires_at: '2026-03-02T15:30:00.000Z',
      },
    ],
  },
);

export const RateLimitedError = Detail(
  'RateLimitedError',
  ['rate_limited'],
  "Over the organization's session-creation rate limit for this minute",
);

/** The answers that were counted against the rate limit carry its headers. */
const COUNTED = ['RateLimit', 'RateLimit-Policy'] as const;

export const dniSessionSchema = {
  operationId: 'createDniSession',
  summary: 'Create a DNI session',
  description:
    "Gives the visitor a tracking number from the campaign pool. A visitor with a live session gets the same session and number back and its expiry extended (still 201). When every number is held, the campaign's overflow number, else a shared pool number (still 201). Rate limited per organization (default 300 per wall-clock minute); every answer after authentication carries the RateLimit and RateLimit-Policy headers.",
  tags: ['dni'],
  body: ref(DniSessionBody),
  response: {
    201: reply('The session, new or extended', DniSessionResponse, { headers: [...COUNTED] }),
    ...tenantErrors(CampaignNotFoundError, [...COUNTED]),
    429: reply(
      'Rate limit exceeded; nothing was stored. Retry after Retry-After seconds',
      RateLimitedError,
      {
        headers: ['Retry-After', ...COUNTED],
      },
    ),
  },
};

export const dniSessionSchemas: Named[] = [DniSessionBody, DniSessionResponse, RateLimitedError];
