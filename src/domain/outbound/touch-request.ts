import Type, { type Static } from 'typebox';
import { literals, withDefault } from '../schema.js';
import { CHANNELS, CONSENT_BASES } from '../vocabulary.js';

/**
 * The body of `POST /tracking/campaigns/{campaign_code}/outbound` (contract §5): the route
 * validates it and documents it (OpenAPI `OutboundTouchRequest`), the domain reads its `Static`.
 */
export const OutboundBody = Type.Object(
  {
    to_e164: Type.String({ 'x-check': 'e164', description: 'Contact number, E.164' }),
    channel: literals(CHANNELS, {
      description: 'The touch kind',
    }),
    consent_basis: literals(CONSENT_BASES, {
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
    dry_run: withDefault(Type.Boolean(), false),
  },
  {
    $id: 'OutboundTouchRequest',
    additionalProperties: false,
    examples: [
      {
        to_e164: '+14155550123',
        channel: 'sms',
        consent_basis: 'pewc',
        template_id: 'welcome',
        dynamic_variables: { name: 'Ada' },
        idempotency_key: 'lead-981:step-1',
      },
    ],
  },
);
/** The validated body of a touch request. */
export type TouchRequest = Static<typeof OutboundBody>;
