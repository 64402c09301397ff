import Type from 'typebox';
import { CampaignConfig } from '../../domain/outbound/config-schema.js';
import { literals } from '../../domain/schema.js';
import {
  CONSENT_BASES,
  EBR_BASES,
  REVOCATION_KINDS,
  SCOPES,
  SUPPRESSION_LISTS,
} from '../../domain/vocabulary.js';
import { withDefault } from '../common.js';

const e164 = Type.String({ 'x-check': 'e164', description: 'E.164 number' });
const isoDate = Type.String({
  'x-check': 'iso_datetime',
  description: 'ISO 8601 timestamp with a zone',
});
const scopes = Type.Array(literals(SCOPES), {
  minItems: 1,
});
const rateLimit = Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000 }), Type.Null()]);

export const OrgIdParams = Type.Object({ org_id: Type.String({ minLength: 1, maxLength: 64 }) });
export const KeyIdParams = Type.Object({ key_id: Type.String({ minLength: 1, maxLength: 64 }) });
export const CampaignParams = Type.Object({
  org_id: Type.String({ minLength: 1, maxLength: 64 }),
  code: Type.String({ minLength: 1, maxLength: 3 }),
});

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

export const CreateKey = Type.Object(
  {
    scopes,
    expires_at: Type.Optional(Type.Union([isoDate, Type.Null()])),
    label: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    buyer_id: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()], {
        description:
          'Binds the key to a buyer of the organization: it may only post buyer reports, on the calls that buyer answered (needs the execute scope)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const UpdateKey = Type.Object({ scopes }, { additionalProperties: false });

export const RotateKey = Type.Object(
  { grace_seconds: withDefault(Type.Integer({ minimum: 0, maximum: 30 * 86_400 }), 0) },
  { additionalProperties: false },
);

const campaignFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  numbers: Type.Array(e164, { minItems: 1, maxItems: 10_000 }),
  overflow_number: Type.Optional(Type.Union([e164, Type.Null()])),
  forward_to: Type.Optional(Type.Union([e164, Type.Null()])),
  session_ttl_seconds: Type.Optional(Type.Integer({ minimum: 300, maximum: 7200 })),
  report_window_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
  config: Type.Optional(CampaignConfig),
};

export const CreateCampaign = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 3 }), ...campaignFields },
  { additionalProperties: false },
);

export const UpdateCampaign = Type.Object(
  {
    name: Type.Optional(campaignFields.name),
    numbers: Type.Optional(campaignFields.numbers),
    overflow_number: campaignFields.overflow_number,
    forward_to: campaignFields.forward_to,
    session_ttl_seconds: campaignFields.session_ttl_seconds,
    report_window_days: campaignFields.report_window_days,
    config: campaignFields.config,
  },
  { additionalProperties: false },
);

export const AddNumbers = Type.Object(
  { numbers: campaignFields.numbers },
  { additionalProperties: false },
);

export const RecordCall = Type.Object(
  {
    to: e164,
    from: Type.String({
      minLength: 1,
      maxLength: 32,
      description: 'Caller id as the carrier gave it',
    }),
    started_at: Type.Optional(isoDate),
  },
  { additionalProperties: false },
);

export const AuditQuery = Type.Object({
  limit: withDefault(Type.Integer({ minimum: 1, maximum: 1000 }), 100),
  action: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'An exact action, or a prefix ending in * (buyer_report.*)',
    }),
  ),
  subject_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  since: Type.Optional({ ...isoDate, description: 'Entries at or after this time' }),
  until: Type.Optional({ ...isoDate, description: 'Entries before this time' }),
  cursor: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,15}$', description: 'next_cursor of the previous page' }),
  ),
});

export const ConsentParams = Type.Object({
  org_id: Type.String({ minLength: 1, maxLength: 64 }),
  e164,
});

const optionalText = (maxLength: number) =>
  Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength }), Type.Null()]));

export const PutConsent = Type.Object(
  {
    tier: literals(CONSENT_BASES),
    basis: Type.Optional(
      literals(EBR_BASES, {
        description: 'ebr only: a transaction lasts 18 months, an inquiry 3',
      }),
    ),
    source: optionalText(200),
    captured_at: Type.Optional(isoDate),
    expires_at: Type.Optional(Type.Union([isoDate, Type.Null()])),
    evidence: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), {
        description: 'Certificate id, URL, IP, disclosure text and version…',
      }),
    ),
  },
  { additionalProperties: false },
);

export const RevokeConsent = Type.Object(
  {
    kind: Type.Optional(literals(REVOCATION_KINDS)),
    reason: optionalText(500),
    at: Type.Optional(isoDate),
  },
  { additionalProperties: false },
);

export const TouchParams = Type.Object({
  org_id: Type.String({ minLength: 1, maxLength: 64 }),
  touch_id: Type.String({ minLength: 1, maxLength: 64 }),
});

export const PoolQuery = Type.Object({
  days: withDefault(
    Type.Integer({ minimum: 1, maximum: 365, description: 'Window, days back' }),
    30,
  ),
  target: withDefault(
    Type.Number({
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      description: 'Attribution accuracy the recommended pool size aims at',
    }),
    0.99,
  ),
});

const suppressionList = literals(SUPPRESSION_LISTS);
const listDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'YYYY-MM-DD' });
const usState = Type.String({ pattern: '^[A-Z]{2}$', description: 'USPS state code' });

export const SuppressionListParams = Type.Object({
  org_id: Type.String({ minLength: 1, maxLength: 64 }),
  list: suppressionList,
});
export const SuppressionEntryParams = Type.Object({
  org_id: Type.String({ minLength: 1, maxLength: 64 }),
  list: suppressionList,
  e164,
});
export const SuppressionImportQuery = Type.Object({
  mode: Type.Optional(Type.Union([Type.Literal('add'), Type.Literal('replace')])),
  source: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  list_date: Type.Optional(listDate),
  state: Type.Optional(usState),
});
export const PutSuppressionEntry = Type.Object(
  {
    source: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    list_date: Type.Optional(listDate),
    state: Type.Optional(usState),
  },
  { additionalProperties: false },
);
export const DeleteSuppressionEntry = Type.Object(
  { reason: Type.String({ minLength: 1, maxLength: 500 }) },
  { additionalProperties: false },
);
export const SuppressionSettings = Type.Object(
  { litigator_blocks: Type.Boolean() },
  { additionalProperties: false },
);
