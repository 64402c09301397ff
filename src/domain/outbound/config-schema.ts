/**
 * A campaign `config` (contract §5, docs/outbound.md lists every key) as one TypeBox schema: the
 * compliance keys (compliance/config-schema.ts), the keys this service reads besides them, and
 * `variants`, partial configs of the same keys by funnel node. The admin API validates writes
 * with it and the domain's config types are its `Static`; what a schema cannot say is a named
 * `x-check` (config-checks.ts). Unknown top-level keys pass through (`conversion`, read by the
 * exports). Imports nothing but TypeBox and its sibling schema.
 */
import Type, { type Static } from 'typebox';
import { complianceFields } from '../compliance/config-schema.js';

export const MessageTemplate = Type.Object(
  {
    text: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1600, description: 'SMS text, also spoken on calls' }),
    ),
    twiml: Type.Optional(
      Type.String({ minLength: 1, maxLength: 4000, description: 'TwiML for calls' }),
    ),
  },
  { additionalProperties: false, description: 'What a touch of this template says' },
);
/** What a touch of a template says: SMS text (also spoken on calls) or TwiML for calls. */
export type MessageTemplate = Static<typeof MessageTemplate>;

const outboundFields = {
  ...complianceFields,
  caller_id: Type.Optional(
    Type.String({ 'x-check': 'e164', description: 'The number touches come from, E.164' }),
  ),
  templates: Type.Optional(
    Type.Record(Type.String(), MessageTemplate, {
      description: 'By template_id; `default` serves touches that name no template',
    }),
  ),
  recording_url: Type.Optional(
    Type.String({
      maxLength: 2048,
      'x-check': 'http_url',
      description: 'The recording a voicemail drop plays, http(s)',
    }),
  ),
  // One SMS segment of GSM-7 text: a confirmation should never be split.
  opt_out_confirmation: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 160,
      'x-check': 'non_blank',
      description:
        'The one text sent after a contact opts out by text (64.1200(a)(12)); must not market. Read from the base config only',
    }),
  ),
  opt_out_prompt: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 500,
      'x-check': 'non_blank',
      description: 'What a prerecorded call or voicemail drop says before it waits for the key',
    }),
  ),
};

/** A variant: any of the base keys, merged over the base for touches of its funnel node. */
export const VariantConfig = Type.Object(outboundFields, {
  additionalProperties: true,
  'x-check': 'no_nested_variants',
  description: 'A partial config; compliance keys only narrow the base',
});
/** A campaign config as a touch runs under it: the base, or the base merged with a variant. */
export type OutboundConfig = Static<typeof VariantConfig>;

export const CampaignConfig = Type.Object(
  {
    ...outboundFields,
    variants: Type.Optional(
      Type.Record(Type.String(), VariantConfig, {
        'x-check': 'funnel_node_names',
        description: 'By funnel_node (1 to 64 characters)',
      }),
    ),
  },
  { additionalProperties: true, description: 'Campaign configuration (docs/outbound.md)' },
);
export type CampaignConfig = Static<typeof CampaignConfig>;
