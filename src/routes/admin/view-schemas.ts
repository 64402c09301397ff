import Type, { type TProperties, type TSchema } from 'typebox';
import { LINK_ROLES } from '../../domain/console/ports.js';
import { PLATFORMS, UPLOAD_KINDS, UPLOAD_STATUSES } from '../../domain/conversions/vocabulary.js';
import { literals } from '../../domain/schema.js';
import {
  CONSENT_TIERS,
  DELIVERY_STATES,
  EVENT_TYPES,
  SUPPRESSION_LISTS,
  ATTEMPT_OUTCOMES as WEBHOOK_OUTCOMES,
} from '../../domain/vocabulary.js';

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
  opt_out_phrases: Type.Array(Type.String(), {
    description: 'Extra opt-out phrases of this organization, besides the standard words',
  }),
  time_zone: Type.String({ description: 'IANA name: the zone of report buckets' }),
  opt_out_clarification: Type.Boolean(),
  phone_country: Type.String({
    description: 'ISO 3166 alpha-2: the country a number typed without its country code is read in',
  }),
  currency: Type.String({ description: 'ISO 4217: the currency of payouts and revenue' }),
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
    buyer_id: maybe(
      Type.String({ description: 'Bound to this buyer: posts buyer reports on its calls only' }),
    ),
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
  buyer_id: maybe(Type.String({ description: 'The buyer who answered (routing), or null' })),
  billable: maybe(
    Type.Boolean({ description: "Fixed when the answering buyer's leg ends; null before" }),
  ),
  payout: maybe(
    Type.String({
      description: "The buyer's payout in the organization's currency; 0.00 when not billable",
      examples: ['25.00'],
    }),
  ),
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

const ConsentEventView = Type.Object({
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

export const ConsentEventItem = Type.Object({
  e164: Type.String(),
  ...ConsentEventView.properties,
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

const obj = <P extends TProperties>(p: P, description?: string) =>
  Type.Object(p, description ? { description } : {});
const count = Type.Integer({ minimum: 0 });

export const KeyIssued = Type.Object({
  ...KeyItem.properties,
  api_key: Type.String({ description: 'The key itself: shown once, never again' }),
});

export const KeyRotated = Type.Object({
  ...KeyIssued.properties,
  replaces: Type.String({ description: 'The key this one replaces' }),
  old_key_stops_at: maybe(time),
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

export const CallRecorded = obj({
  call_id: Type.String(),
  campaign_code: Type.String(),
  dni_session_id: maybe(Type.String()),
  attribution: Type.String({ description: 'session | recent_holder | repeat_caller | campaign' }),
  ambiguous: Type.Boolean(),
});

export const TouchDetail = Type.Object({
  ...TouchItem.properties,
  dispatch: maybe(
    Type.Object({
      status: maybe(Type.String()),
      attempts: Type.Integer(),
      carrier: maybe(Type.String()),
      carrier_ids: Type.Array(Type.String()),
      last_error: maybe(Type.String()),
      finalized_at: maybe(time),
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

export const ConsentStanding = obj({
  org_id: Type.String(),
  e164: Type.String(),
  status: literals(['active', 'expired', 'revoked', 'do_not_call', 'none']),
  tier_on_file: literals(CONSENT_TIERS),
  record_id: maybe(Type.String()),
  history: Type.Array(ConsentEventView, { description: 'Newest first' }),
});

export const ConsentImportSummary = obj({
  rows: count,
  imported: count,
  duplicates: Type.Integer({ minimum: 0, description: 'Rows already on file, skipped' }),
  rejected_count: count,
  rejected: Type.Array(obj({ line: Type.Integer(), errors: Type.Array(Type.String()) }), {
    description: 'The first rejected rows, with their line numbers',
  }),
});

export const SuppressionImportSummary = obj({
  import_id: Type.String(),
  list: literals(SUPPRESSION_LISTS),
  mode: literals(['add', 'replace']),
  listed_on: Type.String({ description: 'YYYY-MM-DD' }),
  rows: count,
  added: count,
  removed: count,
  rejected_count: count,
  rejected: Type.Array(obj({ line: Type.Integer(), error: Type.String() }), {
    description: 'The first rejected lines, with their line numbers',
  }),
});

export const SuppressionSettingsView = obj({ litigator_blocks: Type.Boolean() });

export const SuppressionEntryRemoved = obj({
  org_id: Type.String(),
  list: literals(SUPPRESSION_LISTS),
  e164: Type.String(),
  removed: Type.Literal(true),
  reason: Type.String(),
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

export const AuditItem = obj({
  id: Type.String(),
  at: time,
  actor: Type.String(),
  action: Type.String(),
  subject_type: Type.String(),
  subject_id: Type.String(),
  detail: Type.Unknown({ description: 'What changed (fields vary by action)' }),
  request_id: maybe(Type.String()),
});

export const ConsoleUserCreated = obj({
  user_id: Type.String(),
  email: Type.String(),
  role: literals(LINK_ROLES),
  org_id: maybe(Type.String()),
  created_at: time,
});

export const ConsoleLinkCreated = obj({
  kind: literals(['invitation', 'reset']),
  email: Type.String(),
  role: maybe(literals(LINK_ROLES)),
  org_id: maybe(Type.String()),
  url: Type.String({ description: 'Shown once' }),
  expires_at: time,
});

const money = obj({ amount: Type.Number(), currency: Type.String() });
export const DestinationItem = obj({
  destination_id: Type.String(),
  org_id: Type.String(),
  platform: literals(PLATFORMS),
  name: Type.String(),
  campaigns: maybe(Type.Array(Type.String())),
  trigger: obj({ event: Type.String(), min_seconds: Type.Optional(Type.Integer()) }),
  value: maybe(money),
  settings: Type.Record(Type.String(), Type.String()),
  secrets: Type.Record(Type.String(), Type.String(), {
    description: 'Which secrets are set, masked: never the secrets',
  }),
  enabled: Type.Boolean(),
  api: maybe(
    obj(
      {
        name: Type.String({
          description: 'data_manager, google_ads_api, meta_graph, microsoft_ads',
        }),
        version: Type.String(),
        retires_on: maybe(
          Type.String({ description: "The vendor's retirement date, if announced" }),
        ),
        warning: maybe(
          Type.String({ description: 'Set when the version is retired or will be within 60 days' }),
        ),
      },
      "The platform API and version this destination's uploads use",
    ),
  ),
  created_at: time,
  updated_at: time,
});

export const DestinationDetail = Type.Object({
  ...DestinationItem.properties,
  uploads: obj({
    last_success_at: maybe(time),
    pending: count,
    sent: count,
    failed: count,
    retracted: count,
    not_retractable: count,
    failed_by_reason: Type.Record(Type.String(), count),
  }),
});

export const UploadItem = obj({
  upload_id: Type.String(),
  call_id: Type.String(),
  kind: literals(UPLOAD_KINDS),
  dedupe_key: Type.String(),
  status: literals(UPLOAD_STATUSES),
  attempts: count,
  reason_code: maybe(Type.String()),
  reason: maybe(Type.String()),
  next_attempt_at: maybe(time),
  sent_at: maybe(time),
  created_at: time,
});

export const UploadAttemptItem = obj({
  attempt_id: Type.String(),
  upload_id: Type.String(),
  attempt: Type.Integer({ minimum: 1 }),
  outcome: Type.String(),
  status_code: maybe(Type.Integer()),
  reason: maybe(Type.String()),
  started_at: time,
  finished_at: maybe(time),
});

export const DestinationTestResult = obj({
  destination_id: Type.String(),
  platform: literals(PLATFORMS),
  ok: Type.Boolean(),
  status_code: maybe(Type.Integer()),
  checked: Type.Array(Type.String(), {
    description: 'What the accepted test proved (empty when ok is false)',
  }),
  result: Type.Unknown({ description: "The platform's verdict on the sample" }),
  answer: Type.Unknown({ description: "The platform's answer, as sent" }),
});

export const UploadsQueued = obj({ destination_id: Type.String(), queued: count });

export const Health = obj({ status: Type.Literal('ok') });

/** `{items}` of one item schema, for lists read newest first up to `limit` with no cursor. */
export const itemsOf = (item: TSchema) => obj({ items: Type.Array(item) });
