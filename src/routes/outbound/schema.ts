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

export const outboundSchema = {
  summary: 'Execute an outbound touch',
  tags: ['outbound'],
  params: CampaignCodeParams,
  body: OutboundBody,
  response: {
    ...tenantErrors(['campaign_not_found']),
    409: Detail(['idempotency_key_in_use'], 'A request with this idempotency_key is still running'),
    501: Detail(['not_implemented'], 'Not available yet in this version'),
  },
};
