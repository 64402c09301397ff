import Type, { type Static } from 'typebox';
import { CampaignCodeParams, Detail, tenantErrors } from '../common.js';

export const OutboundBody = Type.Object(
  {
    to_e164: Type.String({ 'x-check': 'e164', description: 'Contact number, E.164' }),
    channel: Type.Union([Type.Literal('call'), Type.Literal('sms'), Type.Literal('voicemail')], {
      description: 'The touch kind',
    }),
    consent_basis: Type.Union([Type.Literal('pewc'), Type.Literal('pec'), Type.Literal('ebr')]),
    funnel_node: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    scenario_ref: Type.Optional(Type.String({ maxLength: 128 })),
    template_id: Type.Optional(Type.String({ maxLength: 128 })),
    dynamic_variables: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]),
        {
          'x-check': 'dynamic_variables',
        },
      ),
    ),
    lead_timezone: Type.Optional(Type.String({ 'x-check': 'iana_zone' })),
    cadence_step: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
    idempotency_key: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_.:-]+$' }),
    ),
    dry_run: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
export type OutboundBody = Static<typeof OutboundBody>;

const literals = (values: string[]) => Type.Union(values.map((v) => Type.Literal(v)));

const REASON_CODES = [
  'consent_missing',
  'consent_insufficient',
  'consent_revoked',
  'channel_not_allowed',
  'location_unresolved',
  'quiet_hours',
  'frequency_capped',
];

// additionalProperties: the check details are open objects, and Fastify
// serializes responses by their schema, which would otherwise drop their keys.
const checkDetail = (description: string) =>
  Type.Object({}, { additionalProperties: true, description });

/** One body for every outcome (contract §5). */
const touchResponse = (description: string) =>
  Type.Object(
    {
      touch_id: Type.String({ description: 'tch_…' }),
      status: literals(['queued', 'blocked', 'would_queue', 'would_block']),
      channel: literals(['call', 'sms', 'voicemail']),
      reasons: Type.Array(Type.Object({ code: literals(REASON_CODES), message: Type.String() }), {
        description: 'The failing checks, in check order; empty when the touch passes',
      }),
      checks: Type.Object({
        consent: checkDetail('Consent check'),
        quiet_hours: checkDetail('Quiet-hours check'),
        frequency: checkDetail('Frequency check'),
      }),
      next_allowed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
        description: 'Earliest time the touch could pass, where knowable',
      }),
      variant: Type.Union([Type.String(), Type.Null()], {
        description: 'The funnel_node variant used',
      }),
      cadence_step: Type.Union([Type.Integer(), Type.Null()]),
    },
    { description },
  );

export const outboundSchema = {
  summary: 'Execute an outbound touch',
  tags: ['outbound'],
  params: CampaignCodeParams,
  body: OutboundBody,
  response: {
    202: touchResponse('Placed: status queued, handed to the carrier'),
    200: touchResponse('Blocked (status blocked) or a dry run (would_queue / would_block)'),
    ...tenantErrors(['campaign_not_found']),
    409: Detail(['idempotency_key_in_use'], 'A request with this idempotency_key is still running'),
  },
};
