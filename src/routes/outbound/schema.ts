import Type from 'typebox';
import { OutboundBody } from '../../domain/outbound/touch-request.js';
import { literals } from '../../domain/schema.js';
import { CHANNELS, REASON_CODES, TOUCH_DECISIONS } from '../../domain/vocabulary.js';
import { CampaignCodeParams, CampaignNotFoundError, Detail, tenantErrors } from '../common.js';
import { type Named, ref, reply } from '../openapi.js';

const Channel = literals(CHANNELS);

// The body's schema is the domain's, which reads its type (TouchRequest).
export { OutboundBody };

const Reason = Type.Object(
  {
    code: literals(REASON_CODES),
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
    suppression: { passed: true, codes: [] },
    reassigned: { passed: true, code: null },
  },
  next_allowed_at: '2026-03-03T13:00:00.000Z',
  variant: null,
  cadence_step: null,
};

export const TouchResponse = Type.Object(
  {
    touch_id: Type.Union([Type.String(), Type.Null()], { description: 'tch_…; null on dry runs' }),
    status: literals(TOUCH_DECISIONS),
    channel: Channel,
    reasons: Type.Array(Type.Ref('TouchReason'), {
      description: 'The failing checks; empty when placed',
    }),
    checks: Type.Object({
      consent: check('Tier on file, asserted and required tiers, revocation'),
      quiet_hours: check('Local time and window in every candidate zone'),
      frequency: check('Counts and caps per rolling window'),
      suppression: Type.Object(
        {
          passed: Type.Boolean(),
          codes: Type.Array(literals(['dnc_listed', 'litigator_listed', 'dnc_list_stale']), {
            description: 'Every failing code',
          }),
        },
        {
          additionalProperties: true,
          description:
            'Internal, national, state and litigator lists: the entries found, the national copy’s date and whether a scrub was required',
        },
      ),
      reassigned: check('Whether the number was reassigned since consent (RND)'),
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
          suppression: { passed: true, codes: [] },
          reassigned: { passed: true, code: null },
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
