import Type from 'typebox';
import { CampaignConfig } from '../../../domain/outbound/config-schema.js';
import { listQuery } from '../shared/list-query.js';
import { e164 } from '../shared/params.js';
import { maybe, obj, time } from '../shared/views.js';

const campaignFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  numbers: Type.Array(e164, { minItems: 1, maxItems: 10_000 }),
  overflow_number: Type.Optional(Type.Union([e164, Type.Null()])),
  forward_to: Type.Optional(Type.Union([e164, Type.Null()])),
  session_ttl_seconds: Type.Optional(Type.Integer({ minimum: 300, maximum: 7200 })),
  report_window_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 365 })),
  config: Type.Optional(CampaignConfig),
};

export const CreateCampaign = Type.Object(
  { code: Type.String({ minLength: 1, maxLength: 3 }), ...campaignFields },
  { additionalProperties: false },
);

export const UpdateCampaign = Type.Object(
  {
    name: Type.Optional(campaignFields.name),
    numbers: Type.Optional(campaignFields.numbers),
    overflow_number: campaignFields.overflow_number,
    forward_to: campaignFields.forward_to,
    session_ttl_seconds: campaignFields.session_ttl_seconds,
    report_window_days: campaignFields.report_window_days,
    config: campaignFields.config,
  },
  { additionalProperties: false },
);

export const AddNumbers = Type.Object(
  { numbers: campaignFields.numbers },
  { additionalProperties: false },
);

export const CampaignItem = Type.Object({
  campaign_id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  pool_size: Type.Integer(),
  overflow_number: maybe(Type.String()),
  forward_to: maybe(Type.String()),
  session_ttl_seconds: Type.Integer(),
  report_window_days: Type.Integer(),
  created_at: time,
  updated_at: time,
});

export const NumberItem = Type.Object({
  e164: Type.String(),
  role: Type.Union([Type.Literal('pool'), Type.Literal('overflow')]),
  holder: maybe(
    Type.Object({ dni_session_id: Type.String(), visitor_id: maybe(Type.String()) }),
    // null: no live session holds the number now
  ),
  held_until: maybe(time),
  last_assigned_at: maybe(time),
  created_at: time,
});

export const CampaignDetail = obj({
  campaign_id: Type.String(),
  org_id: Type.String(),
  code: Type.String(),
  name: Type.String(),
  numbers: Type.Array(Type.String(), { description: 'The pool, E.164' }),
  overflow_number: maybe(Type.String()),
  forward_to: maybe(Type.String()),
  session_ttl_seconds: Type.Integer(),
  report_window_days: Type.Integer(),
  config: Type.Record(Type.String(), Type.Unknown(), {
    description: 'The outbound configuration (docs/outbound.md)',
  }),
  created_at: time,
  updated_at: time,
});

export const NumberListQuery = listQuery({
  role: Type.Optional(Type.Union([Type.Literal('pool'), Type.Literal('overflow')])),
  state: Type.Optional(
    Type.Union([Type.Literal('held'), Type.Literal('free')], {
      description: 'held: a live DNI session holds the number now',
    }),
  ),
});

export const NumberParams = Type.Object({
  org_id: Type.String({ minLength: 1, maxLength: 64 }),
  code: Type.String({ minLength: 1, maxLength: 3 }),
  e164: Type.String({ 'x-check': 'e164', description: 'E.164 number' }),
});
