import Type, { type TSchema } from 'typebox';

/**
 * What the admin lists and shows answer, for /admin/openapi.json. The views
 * in views.ts and orgs-keys.ts build these objects; test/http/admin-lists
 * checks real answers against these schemas, so the document cannot drift.
 */
const time = Type.String({ format: 'date-time' });
const maybe = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const open = Type.Record(Type.String(), Type.Unknown());

export const OrgItem = Type.Object({
  org_id: Type.String(),
  name: Type.String(),
  tracking_enabled: Type.Boolean(),
  dni_rate_limit_per_minute: maybe(Type.Integer()),
  time_zone: Type.String({ description: 'IANA name: the zone of report buckets' }),
  opt_out_clarification: Type.Boolean(),
  created_at: time,
  updated_at: time,
});

export const KeyItem = Type.Object(
  {
    key_id: Type.String(),
    org_id: Type.String(),
    key_prefix: Type.String({ description: 'The first characters of the key, never the key' }),
    scopes: Type.Array(Type.String()),
    label: maybe(Type.String()),
    expires_at: maybe(time),
    revoked_at: maybe(time),
    rotated_to: maybe(Type.String()),
    created_at: time,
  },
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

export const CallItem = Type.Object({
  call_id: Type.String(),
  campaign_code: Type.String(),
  tracking_number: Type.String(),
  from: Type.String(),
  started_at: time,
  attribution: Type.Object({
    kind: Type.String({ description: 'session | recent_holder | repeat_caller | campaign' }),
    ambiguous: Type.Boolean(),
    dni_session_id: maybe(Type.String()),
    visitor_id: maybe(Type.String()),
    landing_url: maybe(Type.String()),
    click_ids: Type.Record(Type.String(), Type.String()),
    utm: Type.Record(Type.String(), Type.String()),
  }),
  carrier: maybe(Type.String()),
  carrier_call_sid: maybe(Type.String()),
  status: maybe(Type.String()),
  duration_seconds: maybe(Type.Integer()),
  ended_at: maybe(time),
  disposition: maybe(Type.String()),
  disposition_at: maybe(time),
  created_at: time,
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
  dispatch: maybe(
    Type.Object({
      status: maybe(Type.String()),
      attempts: Type.Integer(),
      carrier: maybe(Type.String()),
      carrier_ids: Type.Array(Type.String()),
      last_error: maybe(Type.String()),
      finalized_at: maybe(time),
    }),
  ),
});

export const ConsentEventItem = Type.Object({
  e164: Type.String(),
  id: Type.String(),
  kind: Type.String({ description: 'grant | revoked | opt_out | internal_dnc' }),
  tier: maybe(Type.String()),
  basis: maybe(Type.String()),
  source: maybe(Type.String()),
  captured_at: time,
  expires_at: maybe(time),
  evidence: open,
  reason: maybe(Type.String()),
  actor: Type.String(),
  recorded_at: time,
});

export const SuppressionEntryItem = Type.Object({
  org_id: Type.String(),
  list: Type.String({ description: 'internal | national | state | litigator' }),
  e164: Type.String(),
  state: maybe(Type.String()),
  source: Type.String(),
  list_date: Type.String({ description: 'YYYY-MM-DD: the date of the list copy' }),
  added_at: time,
});

/** `{items, next_cursor}` of one item schema. */
export const pageOfItems = (item: TSchema) =>
  Type.Object({
    items: Type.Array(item),
    next_cursor: maybe(
      Type.String({ description: 'Pass back as ?cursor= for the next page; null on the last' }),
    ),
  });
