import Type from 'typebox';
import { maybe, time } from '../shared/views.js';

const rateLimit = Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()]);

/** The zone of the organization's reports (contract §8). */
const timeZone = Type.String({
  minLength: 1,
  maxLength: 64,
  'x-check': 'iana_zone',
  description: 'IANA time zone name of report buckets, default UTC',
  examples: ['America/New_York'],
});

/** Extra revocation replies of an organization; the list replaces the one on file. */
const optOutPhrases = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50 });
const optOutClarification = Type.Boolean({
  description:
    'Answer a doubtful reply ("can I stop by Saturday?") with the one clarification text; the contact stays opted out until they answer that they want messages (default false: the reply revokes at once, without a question)',
});

/** The country a number typed without its country code is read in (the console's number fields). */
const phoneCountry = Type.String({
  minLength: 2,
  maxLength: 2,
  'x-check': 'phone_country',
  description:
    'ISO 3166 alpha-2 country a number typed without its country code is read in, default US',
  examples: ['US'],
});

const orgName = Type.String({ minLength: 1, maxLength: 200 });
/** What an organization's creation may set besides its name, and a change may set too. */
const orgSettings = {
  tracking_enabled: Type.Optional(Type.Boolean()),
  dni_rate_limit_per_minute: Type.Optional(rateLimit),
  opt_out_phrases: Type.Optional(optOutPhrases),
  time_zone: Type.Optional(timeZone),
  opt_out_clarification: Type.Optional(optOutClarification),
  phone_country: Type.Optional(phoneCountry),
  currency: Type.Optional(
    Type.String({
      'x-check': 'iso_4217',
      description: 'ISO 4217: the currency of buyer payouts and revenue, default USD',
      examples: ['USD'],
    }),
  ),
};

export const CreateOrg = Type.Object(
  { name: orgName, ...orgSettings },
  { additionalProperties: false },
);

export const UpdateOrg = Type.Object(
  { name: Type.Optional(orgName), ...orgSettings },
  { additionalProperties: false },
);

export const OrgItem = Type.Object({
  org_id: Type.String(),
  name: Type.String(),
  tracking_enabled: Type.Boolean(),
  dni_rate_limit_per_minute: maybe(Type.Integer()),
  opt_out_phrases: Type.Array(Type.String(), {
    description: 'Extra opt-out phrases of this organization, besides the standard words',
  }),
  time_zone: Type.String({ description: 'IANA name: the zone of report buckets' }),
  opt_out_clarification: Type.Boolean(),
  phone_country: Type.String({
    description: 'ISO 3166 alpha-2: the country a number typed without its country code is read in',
  }),
  currency: Type.String({ description: 'ISO 4217: the currency of payouts and revenue' }),
  created_at: time,
  updated_at: time,
});
