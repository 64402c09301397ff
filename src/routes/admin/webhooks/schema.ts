import Type from 'typebox';
import { literals } from '../../../domain/schema.js';
import { DELIVERY_STATES, EVENT_TYPES } from '../../../domain/vocabulary.js';
import { withDefault } from '../../common.js';

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
