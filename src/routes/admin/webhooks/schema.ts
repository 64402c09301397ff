import Type from 'typebox';
import { literals } from '../../../domain/schema.js';
import {
  DELIVERY_STATES,
  EVENT_TYPES,
  ATTEMPT_OUTCOMES as WEBHOOK_OUTCOMES,
} from '../../../domain/vocabulary.js';
import { withDefault } from '../../common.js';
import { count, maybe, obj, time } from '../shared/views.js';

const isoDate = Type.String({
  'x-check': 'iso_datetime',
  description: 'ISO 8601 timestamp with a zone',
});
const id = Type.String({ minLength: 1, maxLength: 64 });

export const WebhookParams = Type.Object({ org_id: id, webhook_id: id });

const url = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'https:// URL of a public address (http:// and private addresses only with WEBHOOK_ALLOW_PRIVATE_TARGETS=1)',
});
const events = Type.Array(literals([...EVENT_TYPES, '*']), {
  minItems: 1,
  maxItems: EVENT_TYPES.length + 1,
  description: 'Event types, or ["*"] for all',
});
const description = Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()]));

export const CreateWebhook = Type.Object(
  { url, events, description },
  { additionalProperties: false },
);

export const UpdateWebhook = Type.Object(
  {
    url: Type.Optional(url),
    events: Type.Optional(events),
    description,
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const RotateWebhook = Type.Object(
  {
    grace_seconds: withDefault(
      Type.Integer({
        minimum: 0,
        maximum: 30 * 86_400,
        description: 'How long the old secret keeps signing beside the new one (default a day)',
      }),
      86_400,
    ),
  },
  { additionalProperties: false },
);

export const ReplayWebhook = Type.Object(
  {
    event_id: Type.Optional(id),
    since: Type.Optional({ ...isoDate, description: 'Every failed delivery created since then' }),
  },
  { additionalProperties: false },
);

export const DeliveriesQuery = Type.Object({
  state: Type.Optional(literals(DELIVERY_STATES)),
  limit: withDefault(Type.Integer({ minimum: 1, maximum: 500 }), 50),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'next_cursor of the previous page, as given (opaque)',
    }),
  ),
});

export const AttemptsQuery = Type.Object({
  event_id: Type.Optional(id),
  limit: withDefault(Type.Integer({ minimum: 1, maximum: 500 }), 50),
});

export const WebhookItem = obj({
  webhook_id: Type.String(),
  org_id: Type.String(),
  url: Type.String(),
  events: Type.Array(literals([...EVENT_TYPES, '*'])),
  description: maybe(Type.String()),
  enabled: Type.Boolean(),
  disabled_reason: maybe(Type.String()),
  disabled_at: maybe(time),
  consecutive_failures: count,
  failing_since: maybe(time),
  previous_secret_valid_until: maybe(time),
  created_at: time,
  updated_at: time,
});

export const WebhookWithSecret = Type.Object({
  ...WebhookItem.properties,
  secret: Type.String({ description: 'The signing secret (whsec_…): shown once' }),
});

export const WebhookDeleted = obj({ webhook_id: Type.String(), deleted: Type.Literal(true) });

export const DeliveryItem = obj({
  delivery_id: Type.String(),
  event_id: Type.String(),
  event_type: literals(EVENT_TYPES),
  state: literals(DELIVERY_STATES),
  attempts: count,
  next_attempt_at: maybe(time),
  last_status: maybe(Type.Integer()),
  last_error: maybe(Type.String()),
  delivered_at: maybe(time),
  created_at: time,
});

export const WebhookAttemptItem = obj({
  attempt_id: Type.String(),
  delivery_id: Type.String(),
  event_id: Type.String(),
  attempt: Type.Integer({ minimum: 1 }),
  outcome: literals(WEBHOOK_OUTCOMES),
  status_code: maybe(Type.Integer()),
  latency_ms: maybe(Type.Integer()),
  response_head: maybe(Type.String()),
  error: maybe(Type.String()),
  started_at: time,
  finished_at: maybe(time),
});

export const WebhookReplayQueued = obj({ webhook_id: Type.String(), queued: count });
