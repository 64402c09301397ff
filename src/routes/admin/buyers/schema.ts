import Type, { type TSchema } from 'typebox';
import {
  BUYER_STATUSES,
  FALLBACKS,
  RING_TIMEOUT_DEFAULT,
  RING_TIMEOUT_MAX,
  RING_TIMEOUT_MIN,
  WEEKDAYS,
  WEIGHT_MAX,
  WEIGHT_MIN,
} from '../../../domain/routing/vocabulary.js';
import { literals } from '../../../domain/schema.js';
import { withDefault } from '../../common.js';

const id = Type.String({ minLength: 1, maxLength: 64 });
export const time = Type.String({ format: 'date-time' });
export const maybe = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const BuyerParams = Type.Object({ org_id: id, buyer_id: id });

const e164 = Type.String({
  'x-check': 'e164',
  description: 'E.164 number the buyer takes calls on',
  examples: ['+13125550100'],
});
const zone = Type.String({
  minLength: 1,
  maxLength: 64,
  'x-check': 'iana_zone',
  description: "IANA zone of the schedule and the cap periods; default the organization's",
  examples: ['America/Chicago'],
});
const clock = Type.String({
  pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$',
  description: 'HH:MM in the buyer’s zone; 24:00 ends a span at midnight',
});
const span = Type.Array(clock, {
  minItems: 2,
  maxItems: 2,
  description: '[start, end], end after start',
});
const schedule = maybe(
  Type.Object(
    Object.fromEntries(WEEKDAYS.map((d) => [d, Type.Optional(Type.Array(span, { maxItems: 24 }))])),
    {
      additionalProperties: false,
      description:
        'Open hours per weekday in the buyer’s zone; a day absent is closed; null or absent: always open',
      examples: [
        {
          mon: [['09:00', '17:00']],
          tue: [
            ['09:00', '12:00'],
            ['13:00', '24:00'],
          ],
        },
      ],
    },
  ),
);
const states = maybe(
  Type.Array(Type.String({ 'x-check': 'us_state', description: 'USPS code' }), {
    minItems: 1,
    maxItems: 60,
    description:
      'States the buyer takes callers from, read from the caller’s number; null or absent: any caller (a caller of unknown state goes only to buyers without states)',
    examples: [['CA', 'NV']],
  }),
);
const capValue = (description: string) =>
  Type.Optional(maybe(Type.Integer({ minimum: 0, maximum: 1_000_000_000, description })));
const caps = maybe(
  Type.Object(
    {
      hourly: capValue('Offers per calendar hour in the buyer’s zone'),
      daily: capValue('Offers per calendar day in the buyer’s zone'),
      monthly: capValue('Offers per calendar month in the buyer’s zone'),
      total: capValue('Offers ever'),
      concurrency: capValue('Offers not yet ended'),
    },
    {
      additionalProperties: false,
      description:
        'Each cap counts offers from the moment they are made; an offer not answered stops counting. Absent or null: no cap. Replaced whole by a change.',
      examples: [{ daily: 100, concurrency: 5 }],
    },
  ),
);
const money = Type.String({
  pattern: '^(0|[1-9][0-9]{0,9})\\.[0-9]{2}$',
  description: 'Decimal with two places, in the organization’s currency',
  examples: ['12.50'],
});
const payout = maybe(
  Type.Object(
    {
      amount: money,
      min_duration_seconds: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 86_400,
          description: 'Least length of the buyer’s leg for the call to be billable (default 0)',
        }),
      ),
      duplicate_window_days: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: 3650,
          description:
            'A caller billable to this buyer within this many days before is not billable again (default 0)',
        }),
      ),
    },
    {
      additionalProperties: false,
      examples: [{ amount: '25.00', min_duration_seconds: 90, duplicate_window_days: 30 }],
    },
  ),
);
const status = literals(BUYER_STATUSES, { description: 'paused: offered no calls' });
const name = Type.String({ minLength: 1, maxLength: 200, examples: ['Acme Insurance'] });

export const CreateBuyer = Type.Object(
  {
    name,
    forward_to: e164,
    time_zone: Type.Optional(zone),
    schedule: Type.Optional(schedule),
    states: Type.Optional(states),
    caps: Type.Optional(caps),
    payout: Type.Optional(payout),
    status: Type.Optional(status),
  },
  { additionalProperties: false },
);

export const UpdateBuyer = Type.Object(
  {
    name: Type.Optional(name),
    forward_to: Type.Optional(e164),
    time_zone: Type.Optional(zone),
    schedule: Type.Optional(schedule),
    states: Type.Optional(states),
    caps: Type.Optional(caps),
    payout: Type.Optional(payout),
    status: Type.Optional(status),
  },
  { additionalProperties: false },
);

const count = (description: string) => Type.Integer({ minimum: 0, description });

export const BuyerItem = Type.Object({
  buyer_id: Type.String(),
  name: Type.String(),
  forward_to: Type.String(),
  time_zone: Type.String(),
  schedule: maybe(Type.Record(Type.String(), Type.Array(Type.Array(Type.String())))),
  states: maybe(Type.Array(Type.String())),
  caps: Type.Object({
    hourly: maybe(Type.Integer()),
    daily: maybe(Type.Integer()),
    monthly: maybe(Type.Integer()),
    total: maybe(Type.Integer()),
    concurrency: maybe(Type.Integer()),
  }),
  payout: Type.Object({
    amount: Type.String({ examples: ['25.00'] }),
    min_duration_seconds: Type.Integer(),
    duplicate_window_days: Type.Integer(),
  }),
  status: literals(BUYER_STATUSES),
  usage: Type.Object(
    {
      hourly: count('Offers counted in the buyer’s current hour'),
      daily: count('Offers counted in the buyer’s current day'),
      monthly: count('Offers counted in the buyer’s current month'),
      total: count('Offers counted ever'),
      concurrency: count('Live calls: offers not yet ended'),
    },
    { description: 'What each cap counts now' },
  ),
  created_at: time,
  updated_at: time,
});

const target = Type.Object(
  {
    buyer_id: id,
    priority: Type.Integer({ minimum: 1, maximum: 100, description: '1 is offered first' }),
    weight: withDefault(
      Type.Integer({
        minimum: WEIGHT_MIN,
        maximum: WEIGHT_MAX,
        description: 'Share among the targets of one priority',
      }),
      1,
    ),
  },
  { additionalProperties: false },
);

export const PutRouting = Type.Object(
  {
    targets: Type.Array(target, {
      maxItems: 200,
      description: 'Buyers of the organization, each at most once',
      examples: [
        [
          { buyer_id: 'buy_019caf103180a1b2c3d4e5f6a7b8', priority: 1, weight: 3 },
          { buyer_id: 'buy_019caf103180f6e5d4c3b2a19080', priority: 1, weight: 1 },
        ],
      ],
    }),
    ring_timeout_seconds: withDefault(
      Type.Integer({
        minimum: RING_TIMEOUT_MIN,
        maximum: RING_TIMEOUT_MAX,
        description: 'How long each buyer rings before the next is offered',
      }),
      RING_TIMEOUT_DEFAULT,
    ),
    fallback: withDefault(
      literals(FALLBACKS, {
        description:
          'Where a call no buyer took goes: forward_to (the campaign’s own number) or hangup',
      }),
      'forward_to',
    ),
  },
  { additionalProperties: false },
);

export const RoutingItem = Type.Object({
  campaign_code: Type.String(),
  targets: Type.Array(
    Type.Object({ buyer_id: Type.String(), priority: Type.Integer(), weight: Type.Integer() }),
  ),
  ring_timeout_seconds: Type.Integer(),
  fallback: literals(FALLBACKS),
  updated_at: maybe(time),
});
