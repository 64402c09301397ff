import Type, { type Static } from 'typebox';
import { CampaignCodeParams, Detail, tenantErrors } from '../common.js';

const Channel = Type.Union([Type.Literal('call'), Type.Literal('sms'), Type.Literal('voicemail')]);

export const OutboundBody = Type.Object(
  {
    to_e164: Type.String({ 'x-check': 'e164', description: 'Contact number, E.164' }),
    channel: Type.Union([Type.Literal('call'), Type.Literal('sms'), Type.Literal('voicemail')], {
      description: 'The touch kind',
    }),
    consent_basis: Type.Union([Type.Literal('pewc'), Type.Literal('pec'), Type.Literal('ebr')], {
      description: 'The consent you assert; checked against the tier on file',
    }),
    funnel_node: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "A key of the campaign config's variants; absent: the base config",
      }),
    ),
    scenario_ref: Type.Optional(Type.String({ maxLength: 128 })),
    template_id: Type.Optional(
      Type.String({ maxLength: 128, description: "A key of the campaign config's templates" }),
    ),
    // Value types are checked by the x-check: the validator does not model non-literal unions.
    dynamic_variables: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
        {
          'x-check': 'dynamic_variables',
          description: 'At most 50 keys of string, number, boolean or null values; 8 KiB as JSON',
        },
      ),
    ),
    lead_timezone: Type.Optional(
      Type.String({
        'x-check': 'iana_zone',
        description: "IANA zone of the lead; adds a zone to the number's, never replaces one",
      }),
    ),
    cadence_step: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    idempotency_key: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        pattern: '^[A-Za-z0-9_.:-]+$',
        description: 'Per organization and campaign, kept 24 h',
      }),
    ),
    dry_run: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
export type OutboundBody = Static<typeof OutboundBody>;

const Reason = Type.Object({
  code: Type.Union(
    [
      'consent_missing',
      'consent_insufficient',
      'consent_revoked',
      'channel_not_allowed',
      'location_unresolved',
      'quiet_hours',
      'frequency_capped',
    ].map((c) => Type.Literal(c)),
  ),
  message: Type.String(),
});

const Check = (description: string) =>
  Type.Object(
    { passed: Type.Boolean(), code: Type.Union([Type.String(), Type.Null()]) },
    { additionalProperties: true, description },
  );

export const TouchResponse = Type.Object({
  touch_id: Type.Union([Type.String(), Type.Null()], { description: 'tch_…; null on dry runs' }),
  status: Type.Union([
    Type.Literal('queued'),
    Type.Literal('blocked'),
    Type.Literal('would_queue'),
    Type.Literal('would_block'),
  ]),
  channel: Channel,
  reasons: Type.Array(Reason, { description: 'The failing checks; empty when placed' }),
  checks: Type.Object({
    consent: Check('Tier on file, asserted and required tiers, revocation'),
    quiet_hours: Check('Local time and window in every candidate zone'),
    frequency: Check('Counts and caps per rolling window'),
  }),
  next_allowed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'Earliest time the touch could pass, when knowable',
  }),
  variant: Type.Union([Type.String(), Type.Null()], { description: 'The funnel_node used' }),
  cadence_step: Type.Union([Type.Integer(), Type.Null()]),
});

export const outboundSchema = {
  summary: 'Execute an outbound touch',
  description:
    'Runs consent, quiet-hours and frequency checks, then queues the touch for the carrier or reports why it is blocked. A repeat with the same idempotency_key replays the first answer with the header Idempotent-Replayed: true.',
  tags: ['outbound'],
  params: CampaignCodeParams,
  body: OutboundBody,
  response: {
    200: { ...TouchResponse, description: 'Blocked, or a dry run (would_queue / would_block)' },
    202: { ...TouchResponse, description: 'Queued for the carrier' },
    ...tenantErrors(['campaign_not_found']),
    409: Detail(['idempotency_key_in_use'], 'A request with this idempotency_key is still running'),
  },
};
