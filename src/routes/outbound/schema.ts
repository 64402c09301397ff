import Type, { type Static } from 'typebox';
import {
  CampaignCodeParams,
  CampaignNotFoundError,
  Detail,
  tenantErrors,
  withDefault,
} from '../common.js';
import { type Named, ref, reply } from '../openapi.js';

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
export type OutboundBody = Static<typeof OutboundBody>;

const Reason = Type.Object(
  {
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
  },
  { $id: 'TouchReason', description: 'A failing check' },
);

const Check = Type.Object(
  { passed: Type.Boolean(), code: Type.Union([Type.String(), Type.Null()]) },
  {
    $id: 'TouchCheck',
    additionalProperties: true,
    description: "One check's result and the facts it used (fields vary by check)",
  },
);

const check = (description: string) => Type.Ref('TouchCheck', { description });

const blockedExample = {
  touch_id: 'tch_019caf10c2a87b3e9d1f4a6b5c8e7d23',
  status: 'blocked',
  channel: 'call',
  reasons: [
    {
      code: 'quiet_hours',
      message: 'Outside the permitted calling window in America/New_York.',
    },
  ],
  checks: {
    consent: { passed: true, code: null },
    quiet_hours: { passed: false, code: 'quiet_hours' },
    frequency: { passed: true, code: null },
  },
  next_allowed_at: '2026-03-03T13:00:00.000Z',
  variant: null,
  cadence_step: null,
};

export const TouchResponse = Type.Object(
  {
    touch_id: Type.Union([Type.String(), Type.Null()], { description: 'tch_…; null on dry runs' }),
    status: Type.Union([
      Type.Literal('queued'),
      Type.Literal('blocked'),
      Type.Literal('would_queue'),
      Type.Literal('would_block'),
    ]),
    channel: Channel,
    reasons: Type.Array(Type.Ref('TouchReason'), {
      description: 'The failing checks; empty when placed',
    }),
    checks: Type.Object({
      consent: check('Tier on file, asserted and required tiers, revocation'),
      quiet_hours: check('Local time and window in every candidate zone'),
      frequency: check('Counts and caps per rolling window'),
    }),
    next_allowed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'Earliest time the touch could pass, when knowable',
    }),
    variant: Type.Union([Type.String(), Type.Null()], { description: 'The funnel_node used' }),
    cadence_step: Type.Union([Type.Integer(), Type.Null()]),
  },
  {
    $id: 'Touch',
    description: 'The decision on a touch, with every check',
    examples: [blockedExample],
  },
);

export const IdempotencyKeyInUseError = Detail(
  'IdempotencyKeyInUseError',
  ['idempotency_key_in_use'],
  'A request with this idempotency_key is still running',
);

const REPLAY = { headers: ['Idempotent-Replayed' as const] };

export const outboundSchema = {
  operationId: 'executeOutboundTouch',
  summary: 'Execute an outbound touch',
  description:
    'Runs consent, quiet-hours and frequency checks, then queues the touch for the carrier (202) or reports why it is blocked (200); every check is reported either way. dry_run: true decides without storing anything. A repeat with the same idempotency_key (per organization and campaign, kept 24 h) replays the first answer with the header Idempotent-Replayed: true.',
  tags: ['outbound'],
  params: CampaignCodeParams,
  body: ref(OutboundBody),
  response: {
    200: reply(
      'Blocked (stored, not placed), or a dry run (would_queue / would_block)',
      TouchResponse,
      REPLAY,
    ),
    202: reply('Queued for the carrier', TouchResponse, {
      ...REPLAY,
      example: {
        ...blockedExample,
        status: 'queued',
        channel: 'sms',
        reasons: [],
        checks: {
          consent: { passed: true, code: null },
          quiet_hours: { passed: true, code: null },
          frequency: { passed: true, code: null },
        },
        next_allowed_at: null,
      },
    }),
    ...tenantErrors(CampaignNotFoundError),
    409: reply(
      'A request with this idempotency_key is still running; retry later',
      IdempotencyKeyInUseError,
    ),
  },
};

export const outboundSchemas: Named[] = [
  OutboundBody,
  Reason,
  Check,
  TouchResponse,
  IdempotencyKeyInUseError,
];
