import Type from 'typebox';
import { literals } from '../../../domain/schema.js';
import { DISPATCH_STATUSES, TOUCH_STATUSES } from '../../../domain/vocabulary.js';
import { campaign, listQuery, timeRange } from '../shared/list-query.js';
import { maybe, obj, open, time } from '../shared/views.js';

export const TouchParams = Type.Object({
  org_id: Type.String({ minLength: 1, maxLength: 64 }),
  touch_id: Type.String({ minLength: 1, maxLength: 64 }),
});

/** A touch's dispatch as the list shows it; the detail adds its attempts' history. */
const Dispatch = Type.Object({
  status: maybe(Type.String()),
  attempts: Type.Integer(),
  carrier: maybe(Type.String()),
  carrier_ids: Type.Array(Type.String()),
  last_error: maybe(Type.String()),
  finalized_at: maybe(time),
});

export const TouchItem = Type.Object({
  touch_id: Type.String(),
  campaign_id: Type.String(),
  campaign_code: Type.Optional(Type.String()),
  to_e164: Type.String(),
  channel: Type.String(),
  status: Type.Union([Type.Literal('queued'), Type.Literal('blocked')]),
  reasons: Type.Array(open),
  checks: Type.Unknown({ description: 'Every compliance check and its outcome' }),
  consent_basis: Type.String(),
  decided_at: time,
  next_allowed_at: maybe(time),
  variant: maybe(Type.String()),
  cadence_step: maybe(Type.Integer()),
  dispatch: maybe(Dispatch),
});

export const TouchDetail = Type.Object({
  ...TouchItem.properties,
  dispatch: maybe(
    Type.Object({
      ...Dispatch.properties,
      history: Type.Optional(
        Type.Array(
          obj({
            attempt: Type.Integer(),
            outcome: Type.String(),
            carrier: maybe(Type.String()),
            carrier_id: maybe(Type.String()),
            error: maybe(Type.String()),
            started_at: time,
            finished_at: maybe(time),
          }),
        ),
      ),
    }),
  ),
});

export const TouchListQuery = listQuery({
  campaign,
  ...timeRange,
  status: Type.Optional(literals(TOUCH_STATUSES)),
  dispatch_status: Type.Optional(literals(DISPATCH_STATUSES)),
  to: Type.Optional(Type.String({ 'x-check': 'e164', description: 'Only touches to this number' })),
});
