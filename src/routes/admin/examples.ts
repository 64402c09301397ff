/**
 * An example request body for each admin operation whose body schema carries none, by
 * `METHOD /url` as the route is registered. `requireDocumented` (openapi.ts) puts it on the
 * body schema, so the document shows it; redocly's recommended rules
 * (no-invalid-media-type-examples) check it against the schema, and
 * test/unit/admin-openapi-examples.test.ts fails on an operation with a body and no example.
 */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  'POST /admin/orgs': {
    name: 'Acme Plumbing',
    tracking_enabled: true,
    dni_rate_limit_per_minute: 600,
    time_zone: 'America/Chicago',
  },
  'PATCH /admin/orgs/:org_id': { tracking_enabled: false },
  'PATCH /admin/keys/:key_id': { scopes: ['enroll'] },

  'POST /admin/keys/:key_id/rotate': { grace_seconds: 3600 },
  'POST /admin/orgs/:org_id/keys': {
    scopes: ['enroll', 'execute'],
    expires_at: '2027-01-01T00:00:00Z',
    label: 'website',
  },
  'POST /admin/console/users': {
    email: 'ops@example.com',
    role: 'operator',
    password: 'correct horse battery staple',
  },
  'POST /admin/console/links': {
    kind: 'invitation',
    email: 'analyst@example.com',
    role: 'viewer',
    org_id: 'org_019caf103180779e8db690243ac46f11',
  },
  'POST /admin/orgs/:org_id/campaigns': {
    code: 'spr',
    name: 'Spring sale',
    numbers: ['+14155550100', '+14155550101'],
    overflow_number: '+14155550199',
    forward_to: '+14155550123',
    session_ttl_seconds: 1800,
  },
  'PATCH /admin/orgs/:org_id/campaigns/:code': { name: 'Spring sale (extended)' },
  'POST /admin/orgs/:org_id/campaigns/:code/numbers': { numbers: ['+14155550102'] },
  'POST /admin/orgs/:org_id/calls': {
    to: '+14155550100',
    from: '+14155550177',
    started_at: '2026-03-02T15:04:05Z',
  },
  'PUT /admin/orgs/:org_id/consents/:e164': {
    tier: 'pewc',
    source: 'web-form',
    captured_at: '2026-01-05T10:00:00Z',
  },
  'POST /admin/orgs/:org_id/consents/:e164/revoke': { kind: 'opt_out', reason: 'asked by phone' },
  'PUT /admin/orgs/:org_id/suppression/settings': { litigator_blocks: true },
  'PUT /admin/orgs/:org_id/suppression/:list/:e164': { source: 'support ticket 4411' },
  'DELETE /admin/orgs/:org_id/suppression/:list/:e164': { reason: 'added by mistake' },
  'POST /admin/orgs/:org_id/webhooks': {
    url: 'https://hooks.example.com/calls',
    events: ['call.completed', 'pool.exhausted'],
    description: 'CRM',
  },
  'PATCH /admin/orgs/:org_id/webhooks/:webhook_id': { enabled: false },
  'POST /admin/orgs/:org_id/webhooks/:webhook_id/rotate': { grace_seconds: 86400 },
  'POST /admin/orgs/:org_id/webhooks/:webhook_id/replay': { since: '2026-03-01T00:00:00Z' },
  'POST /admin/orgs/:org_id/buyers': {
    name: 'Lakeside Insurance',
    forward_to: '+13125550188',
    time_zone: 'America/Chicago',
    schedule: { mon: [['09:00', '17:00']], tue: [['09:00', '17:00']], sat: [] },
    states: ['IL', 'WI'],
    caps: { daily: 100, concurrency: 5 },
    payout: { amount: '35.00', min_duration_seconds: 90, duplicate_window_days: 30 },
  },
  'PATCH /admin/orgs/:org_id/buyers/:buyer_id': { status: 'paused' },
  'PUT /admin/orgs/:org_id/campaigns/:code/routing': {
    targets: [
      { buyer_id: 'buy_019caf103180043307c151ba3488bf73', priority: 1, weight: 3 },
      { buyer_id: 'buy_019caf103180b47c6120c662bca59139', priority: 1, weight: 1 },
    ],
    ring_timeout_seconds: 20,
    fallback: 'forward_to',
  },
  'POST /admin/orgs/:org_id/conversion-destinations': {
    platform: 'meta',
    name: 'Meta pixel',
    trigger: { event: 'answered_call', min_seconds: 60 },
    value: { amount: 25, currency: 'USD' },
    settings: { pixel_id: '123456789012345' },
    secrets: { access_token: 'EAAB…' },
  },
  'PATCH /admin/orgs/:org_id/conversion-destinations/:destination_id': { enabled: false },
  'POST /admin/orgs/:org_id/conversion-destinations/:destination_id/retry': {},
  'POST /admin/orgs/:org_id/conversion-destinations/:destination_id/replay': {
    since: '2026-03-01T00:00:00Z',
  },
};

// The answers below are shaped on what the HTTP suites receive: ids are `<prefix>_` and 32 hex
// digits (src/domain/ids.ts), times are ISO 8601 in UTC, numbers E.164.
const ORG_ID = 'org_019caf103180779e8db690243ac46f11';
const CREATED = '2026-03-02T15:00:00.000Z';
const UPDATED = '2026-03-02T15:04:05.000Z';
const KEY_ID = 'key_019caf1031804b363751bc86ca9087e2';
const CAMPAIGN_ID = 'cmp_019caf103180d1dc8455a3a7ce74f3a0';
const BUYER_ID = 'buy_019caf103180043307c151ba3488bf73';
const BUYER_2_ID = 'buy_019caf103180b47c6120c662bca59139';
const WEBHOOK_ID = 'whk_019caf10318048e30284264a2cefb5bf';
const DESTINATION_ID = 'cdst_019caf103180e7542767621ff22f33e8';
const CALL_ID = 'call_019caf13ee8844ea62624c6418c54b2c';
const SESSION_ID = 'ds_019caf131f80951cebcf80a8faa52edc';
const TOUCH_ID = 'tch_019caf1031801415e2bc98625b363e94';
const CONSENT_ID = 'cns_019b8d996900e8e9fc3ae19e90565331';
const CALLER = '+12125550142';

const org = {
  org_id: ORG_ID,
  name: 'Acme Plumbing',
  tracking_enabled: true,
  dni_rate_limit_per_minute: 600,
  opt_out_phrases: [],
  time_zone: 'America/Chicago',
  opt_out_clarification: false,
  phone_country: 'US',
  currency: 'USD',
  created_at: CREATED,
  updated_at: CREATED,
};

const key = {
  key_id: KEY_ID,
  org_id: ORG_ID,
  key_prefix: 'svc_live_0e4a…',
  scopes: ['enroll', 'execute'],
  label: 'website',
  expires_at: '2027-01-01T00:00:00.000Z',
  revoked_at: null,
  rotated_to: null,
  buyer_id: null,
  created_at: CREATED,
};

const campaign = {
  campaign_id: CAMPAIGN_ID,
  org_id: ORG_ID,
  code: 'spr',
  name: 'Spring sale',
  numbers: ['+14155550100', '+14155550101'],
  overflow_number: '+14155550199',
  forward_to: '+14155550123',
  session_ttl_seconds: 1800,
  report_window_days: 30,
  config: { purpose: 'marketing' },
  created_at: CREATED,
  updated_at: CREATED,
};

const poolNumber = {
  e164: '+14155550100',
  role: 'pool',
  holder: { dni_session_id: SESSION_ID, visitor_id: 'v_7Hc2kQ9x' },
  held_until: '2026-03-02T15:33:12.000Z',
  last_assigned_at: '2026-03-02T15:03:12.000Z',
  created_at: CREATED,
};

const call = {
  call_id: CALL_ID,
  campaign_code: 'spr',
  tracking_number: '+14155550100',
  from: CALLER,
  started_at: '2026-03-02T15:04:05.000Z',
  attribution: {
    kind: 'session',
    ambiguous: false,
    dni_session_id: SESSION_ID,
    visitor_id: 'v_7Hc2kQ9x',
    landing_url: 'https://acme.example.com/spring?utm_source=google&gclid=Cj0KCQiA',
    click_ids: { gclid: 'Cj0KCQiA' },
    utm: { source: 'google' },
  },
  carrier: 'twilio',
  carrier_call_sid: 'CA5f0c2a9e1b7d4c3a8e6f0b1d2c3a4e5f',
  status: 'completed',
  duration_seconds: 187,
  ended_at: '2026-03-02T15:07:32.000Z',
  disposition: 'sale',
  disposition_at: '2026-03-02T15:20:00.000Z',
  buyer_id: BUYER_ID,
  billable: true,
  payout: '25.00',
  created_at: '2026-03-02T15:04:05.000Z',
};

const consentGrant = {
  id: CONSENT_ID,
  kind: 'grant',
  tier: 'pewc',
  basis: null,
  source: 'web-form',
  captured_at: '2026-01-05T10:00:00.000Z',
  expires_at: null,
  evidence: { certificate_id: 'cert-4f2a91' },
  reason: null,
  actor: 'admin',
  recorded_at: '2026-01-05T10:00:00.000Z',
};

const consent = {
  org_id: ORG_ID,
  e164: CALLER,
  status: 'active',
  tier_on_file: 'pewc',
  record_id: CONSENT_ID,
  history: [consentGrant],
};

const suppressionEntry = {
  org_id: ORG_ID,
  list: 'internal',
  e164: CALLER,
  state: null,
  source: 'support ticket 4411',
  list_date: '2026-03-02',
  added_at: CREATED,
};

const webhook = {
  webhook_id: WEBHOOK_ID,
  org_id: ORG_ID,
  url: 'https://hooks.example.com/calls',
  events: ['call.completed', 'pool.exhausted'],
  description: 'CRM',
  enabled: true,
  disabled_reason: null,
  disabled_at: null,
  consecutive_failures: 0,
  failing_since: null,
  previous_secret_valid_until: null,
  created_at: CREATED,
  updated_at: CREATED,
};

const destination = {
  destination_id: DESTINATION_ID,
  org_id: ORG_ID,
  platform: 'meta',
  name: 'Meta pixel',
  campaigns: null,
  trigger: { event: 'answered_call', min_seconds: 60 },
  value: { amount: 25, currency: 'USD' },
  settings: { pixel_id: '123456789012345', test_event_code: 'TEST4821' },
  secrets: { access_token: '••••0000' },
  enabled: true,
  api: { name: 'meta_graph', version: 'v24.0', retires_on: null, warning: null },
  created_at: CREATED,
  updated_at: CREATED,
};

const buyer = {
  buyer_id: BUYER_ID,
  name: 'Lakeside Insurance',
  forward_to: '+13125550188',
  time_zone: 'America/Chicago',
  schedule: { mon: [['09:00', '17:00']], tue: [['09:00', '17:00']], sat: [] },
  states: ['IL', 'WI'],
  caps: { hourly: null, daily: 100, monthly: null, total: null, concurrency: 5 },
  payout: { amount: '35.00', min_duration_seconds: 90, duplicate_window_days: 30 },
  status: 'active',
  usage: { hourly: 2, daily: 14, monthly: 212, total: 1480, concurrency: 1 },
  created_at: CREATED,
  updated_at: CREATED,
};

const routing = {
  campaign_code: 'spr',
  targets: [
    { buyer_id: BUYER_ID, priority: 1, weight: 3 },
    { buyer_id: BUYER_2_ID, priority: 1, weight: 1 },
  ],
  ring_timeout_seconds: 20,
  fallback: 'forward_to',
  updated_at: UPDATED,
};

const touchChecks = {
  consent: {
    code: null,
    passed: true,
    channel: 'call',
    purpose: 'marketing',
    asserted: 'pewc',
    required: 'pewc',
    record_id: CONSENT_ID,
    revoked_at: null,
    tier_on_file: 'pewc',
    allowed_channels: null,
  },
  frequency: {
    caps: [
      { max: 3, count: 0, scope: 'all', passed: true, source: 'default', window_hours: 24 },
      { max: 7, count: 1, scope: 'all', passed: true, source: 'default', window_hours: 168 },
    ],
    code: null,
    passed: true,
    next_allowed_at: null,
  },
  quiet_hours: {
    code: null,
    local: [
      {
        zone: 'America/New_York',
        inside: true,
        window: { end: '21:00', start: '08:00' },
        holiday: null,
        weekday: 'mon',
        local_time: '2026-03-02T10:00',
      },
    ],
    rules: ['federal'],
    state: 'NY',
    zones: ['America/New_York'],
    passed: true,
    next_allowed_at: null,
  },
  suppression: { codes: [], passed: true, entries: [], scrub_required: false },
};

const touch = {
  touch_id: TOUCH_ID,
  campaign_id: CAMPAIGN_ID,
  campaign_code: 'spr',
  to_e164: CALLER,
  channel: 'call',
  status: 'queued',
  reasons: [],
  checks: touchChecks,
  consent_basis: 'pewc',
  decided_at: CREATED,
  next_allowed_at: null,
  variant: null,
  cadence_step: null,
  dispatch: {
    status: 'delivered',
    attempts: 1,
    carrier: 'twilio',
    carrier_ids: ['CA9d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a'],
    last_error: null,
    finalized_at: '2026-03-02T15:00:09.000Z',
  },
};

const page = (items: unknown[], next_cursor: string | null = null) => ({ items, next_cursor });

/**
 * An example answer for each admin operation, by `METHOD /url` as the route is registered:
 * `requireDocumented` (openapi.ts) puts it on the JSON content of the success answer, and
 * test/unit/admin-openapi-examples.test.ts checks it against that answer's schema. Operations
 * whose answer schema carries its own example (the report tables) are not here.
 */
export const RESPONSE_EXAMPLES: Record<string, unknown> = {
  'GET /healthz': { status: 'ok' },
  'GET /admin/readyz': {
    status: 'degraded',
    checks: {
      store: { status: 'ok' },
      suppression_lists: {
        status: 'degraded',
        detail:
          '1 organization(s) with a stale national do-not-call list: marketing touches below pewc are blocked once stale',
      },
    },
  },

  'POST /admin/orgs': org,
  'GET /admin/orgs': page([org], 'b3JnXzAxOWNhZjEwMzE4MDc3OWU4ZGI2OTAyNDNhYzQ2ZjEx'),
  'GET /admin/orgs/:org_id': org,
  'PATCH /admin/orgs/:org_id': { ...org, tracking_enabled: false, updated_at: UPDATED },

  'POST /admin/orgs/:org_id/keys': {
    ...key,
    api_key: 'svc_live_0e4aed13f355e73c2c5296a27e8fd3cccb9592ee',
  },
  'GET /admin/orgs/:org_id/keys': page([key]),
  'GET /admin/keys/:key_id': key,
  'PATCH /admin/keys/:key_id': { ...key, scopes: ['enroll'] },
  'POST /admin/keys/:key_id/revoke': { ...key, revoked_at: UPDATED },
  'POST /admin/keys/:key_id/rotate': {
    ...key,
    key_id: 'key_019caf13ee88d13dde9acf2c144ccc4b',
    key_prefix: 'svc_live_c060…',
    created_at: UPDATED,
    api_key: 'svc_live_c06014d4a66cef1d323302c30da5b4c5efcb00ed',
    replaces: KEY_ID,
    old_key_stops_at: '2026-03-02T16:04:05.000Z',
  },

  'POST /admin/console/users': {
    user_id: 'usr_019caf103180a8c1d4e2f3b5a6c7d8e9',
    email: 'ops@example.com',
    role: 'operator',
    org_id: null,
    created_at: CREATED,
  },
  'POST /admin/console/links': {
    kind: 'invitation',
    email: 'analyst@example.com',
    role: 'viewer',
    org_id: ORG_ID,
    url: 'https://calls.example.com/invite/Zq3v9L0s2mXb7RkT1yWc4hJd8uNe5pAf',
    expires_at: '2026-03-09T15:00:00.000Z',
  },

  'POST /admin/orgs/:org_id/campaigns': campaign,
  'GET /admin/orgs/:org_id/campaigns': page([
    {
      campaign_id: CAMPAIGN_ID,
      code: 'spr',
      name: 'Spring sale',
      pool_size: 2,
      overflow_number: '+14155550199',
      forward_to: '+14155550123',
      session_ttl_seconds: 1800,
      report_window_days: 30,
      created_at: CREATED,
      updated_at: CREATED,
    },
  ]),
  'GET /admin/orgs/:org_id/campaigns/:code': campaign,
  'PATCH /admin/orgs/:org_id/campaigns/:code': {
    ...campaign,
    name: 'Spring sale (extended)',
    updated_at: UPDATED,
  },
  'POST /admin/orgs/:org_id/campaigns/:code/numbers': {
    ...campaign,
    numbers: [...campaign.numbers, '+14155550102'],
    updated_at: UPDATED,
  },
  'GET /admin/orgs/:org_id/campaigns/:code/numbers': page([
    poolNumber,
    {
      e164: '+14155550101',
      role: 'pool',
      holder: null,
      held_until: null,
      last_assigned_at: '2026-03-02T14:41:50.000Z',
      created_at: CREATED,
    },
  ]),
  'GET /admin/orgs/:org_id/campaigns/:code/numbers/:e164': poolNumber,
  'GET /admin/orgs/:org_id/campaigns/:code/pool': {
    campaign_code: 'spr',
    window: { days: 7, since: '2026-02-23T15:04:05.000Z', until: '2026-03-02T15:04:05.000Z' },
    numbers: 2,
    has_overflow_number: true,
    held_now: 1,
    peak_held: 2,
    hourly: [
      { hour: '2026-03-02T13:00:00.000Z', new_sessions: 3, peak_held: 2 },
      { hour: '2026-03-02T14:00:00.000Z', new_sessions: 2, peak_held: 2 },
    ],
    sessions: { allocated: 41, sticky: 12, shared: 3, overflow: 1 },
    calls: {
      total: 9,
      by_rule: { holder: 7, grace: 1, repeat_caller: 1, campaign_only: 0 },
      on_shared_number: 1,
    },
    accuracy: {
      estimated: 0.91,
      method:
        "sizing model (docs/pool-sizing.md) at the current 2 numbers over this window's hourly new sessions, mean hold 1800 s and the observed call timing",
      call_mix_source: 'observed',
    },
    recommendation: {
      target: 0.95,
      size: 3,
      predicted_accuracy: 0.97,
      ceiling: 0.99,
      basis: 'model',
      busiest_hour_new_sessions: 3,
      mean_hold_seconds: 1800,
      busy_hour_load_erlangs: 1.5,
      note: null,
    },
    rules_of_thumb: [
      { source: 'CallTrackingMetrics', rule: '1 number per 20 daily visitors', size: 1 },
      { source: 'CallMatrix', rule: 'peak concurrent visitors ÷ 4', size: 1 },
    ],
  },

  'POST /admin/orgs/:org_id/calls': {
    call_id: CALL_ID,
    campaign_code: 'spr',
    dni_session_id: SESSION_ID,
    attribution: 'session',
    ambiguous: false,
  },
  'GET /admin/orgs/:org_id/calls': page(
    [call],
    'Y2FsbF8wMTljYWYxM2VlODg0NGVhNjI2MjRjNjQxOGM1NGIyYw',
  ),
  'GET /admin/orgs/:org_id/calls/:call_id': {
    ...call,
    offers: [
      {
        buyer_id: BUYER_2_ID,
        offered_at: '2026-03-02T15:04:06.000Z',
        outcome: 'no_answer',
        duration_seconds: null,
      },
      {
        buyer_id: BUYER_ID,
        offered_at: '2026-03-02T15:04:26.000Z',
        outcome: 'answered',
        duration_seconds: 187,
      },
    ],
    buyer_reports: [
      {
        event_id: 'evt_019caf1c5b00e2d4f6a8b0c1d3e5f7a9',
        report_id: 'crm-88213',
        disposition: 'sale',
        notes: 'policy bound',
        key_id: 'key_019caf103180bef2123bbb054a6a18f1',
        at: '2026-03-02T15:20:00.000Z',
      },
    ],
  },

  'GET /admin/orgs/:org_id/touches': page([touch]),
  'GET /admin/orgs/:org_id/touches/:touch_id': {
    ...touch,
    dispatch: {
      ...touch.dispatch,
      history: [
        {
          attempt: 1,
          outcome: 'delivered',
          carrier: 'twilio',
          carrier_id: 'CA9d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a',
          error: null,
          started_at: '2026-03-02T15:00:01.000Z',
          finished_at: '2026-03-02T15:00:09.000Z',
        },
      ],
    },
  },

  'GET /admin/orgs/:org_id/consents': page([{ e164: CALLER, ...consentGrant }], 'Mw'),
  'GET /admin/orgs/:org_id/consents/:e164': consent,
  'PUT /admin/orgs/:org_id/consents/:e164': consent,
  'POST /admin/orgs/:org_id/consents/:e164/revoke': {
    ...consent,
    status: 'revoked',
    history: [
      {
        ...consentGrant,
        id: 'cns_019caf13ee880a9a1aa010ae95f2ceb8',
        kind: 'opt_out',
        tier: null,
        source: null,
        captured_at: UPDATED,
        evidence: {},
        reason: 'asked by phone',
        recorded_at: UPDATED,
      },
      consentGrant,
    ],
  },
  'POST /admin/orgs/:org_id/consents/import': {
    rows: 3,
    imported: 2,
    duplicates: 0,
    rejected_count: 1,
    rejected: [{ line: 4, errors: ['tier: must be pewc, pec or ebr'] }],
  },

  'GET /admin/orgs/:org_id/suppression/settings': { litigator_blocks: false },
  'PUT /admin/orgs/:org_id/suppression/settings': { litigator_blocks: true },
  'GET /admin/orgs/:org_id/suppression/:list': page([suppressionEntry], 'MTIxMjU1NTAxNDI'),
  'GET /admin/orgs/:org_id/suppression/:list/:e164': suppressionEntry,
  'PUT /admin/orgs/:org_id/suppression/:list/:e164': suppressionEntry,
  'DELETE /admin/orgs/:org_id/suppression/:list/:e164': {
    org_id: ORG_ID,
    list: 'internal',
    e164: CALLER,
    removed: true,
    reason: 'added by mistake',
  },
  'POST /admin/orgs/:org_id/suppression/:list/import': {
    import_id: 'sim_019caf1031800ca824befd75efec5dbe',
    list: 'state',
    mode: 'add',
    listed_on: '2026-03-02',
    rows: 2,
    added: 1,
    removed: 0,
    rejected_count: 1,
    rejected: [{ line: 3, error: 'a state list needs a state column or the state parameter' }],
  },

  'GET /admin/orgs/:org_id/reports/traffic/sessions': page([
    {
      dni_session_id: SESSION_ID,
      campaign_code: 'spr',
      created_at: '2026-03-02T15:03:12.000Z',
      tracking_number: '+14155550100',
      kind: 'allocated',
      ambiguous: false,
      hits: 3,
      source: 'google',
      medium: 'cpc',
      utm_campaign: 'spring',
      landing_path: '/spring',
    },
  ]),
  'GET /admin/orgs/:org_id/reports/traffic/calls': page([
    {
      call_id: CALL_ID,
      campaign_code: 'spr',
      started_at: '2026-03-02T15:04:05.000Z',
      from: CALLER,
      tracking_number: '+14155550100',
      attribution: 'session',
      dni_session_id: SESSION_ID,
      source: 'google',
      first_time: true,
      status: 'completed',
      duration_seconds: 187,
      disposition: 'sale',
    },
  ]),
  'GET /admin/orgs/:org_id/reports/touches/rows': page([
    {
      touch_id: TOUCH_ID,
      campaign_code: 'spr',
      decided_at: CREATED,
      to_e164: CALLER,
      channel: 'call',
      purpose: 'marketing',
      outcome: 'delivered',
      reasons: [],
      state: 'NY',
    },
  ]),

  'POST /admin/orgs/:org_id/webhooks': {
    ...webhook,
    secret: 'whsec_Sdt9uTwfLIv8PRjrjUq/n/6W9iNzLR5G0jvQN9sEHfg=',
  },
  'GET /admin/orgs/:org_id/webhooks': page([webhook]),
  'GET /admin/orgs/:org_id/webhooks/:webhook_id': webhook,
  'PATCH /admin/orgs/:org_id/webhooks/:webhook_id': {
    ...webhook,
    enabled: false,
    disabled_reason: 'admin',
    disabled_at: UPDATED,
    updated_at: UPDATED,
  },
  'DELETE /admin/orgs/:org_id/webhooks/:webhook_id': { webhook_id: WEBHOOK_ID, deleted: true },
  'POST /admin/orgs/:org_id/webhooks/:webhook_id/disable': {
    ...webhook,
    enabled: false,
    disabled_reason: 'admin',
    disabled_at: UPDATED,
    updated_at: UPDATED,
  },
  'POST /admin/orgs/:org_id/webhooks/:webhook_id/enable': { ...webhook, updated_at: UPDATED },
  'POST /admin/orgs/:org_id/webhooks/:webhook_id/rotate': {
    ...webhook,
    previous_secret_valid_until: '2026-03-03T15:04:05.000Z',
    updated_at: UPDATED,
    secret: 'whsec_8pAhae9q/sRDocUXWIsoVOEzFW0aLqhFjgh9uYtrMEg=',
  },
  'POST /admin/orgs/:org_id/webhooks/:webhook_id/replay': { webhook_id: WEBHOOK_ID, queued: 12 },
  'GET /admin/orgs/:org_id/webhooks/:webhook_id/deliveries': page([
    {
      delivery_id: 'wdl_019caf13ee8800cf09780e5e9f11dcd1',
      event_id: 'msg_019caf13ee88750040736ab34cf7c6e8',
      event_type: 'call.completed',
      state: 'failed',
      attempts: 6,
      next_attempt_at: null,
      last_status: 500,
      last_error: 'HTTP 500 (gave up after 6 attempts)',
      delivered_at: null,
      created_at: '2026-03-02T15:07:33.000Z',
    },
  ]),
  'GET /admin/orgs/:org_id/webhooks/:webhook_id/attempts': {
    attempts: [
      {
        attempt_id: 'wat_019caf190b20ef9fddfa3a6c7941006d',
        delivery_id: 'wdl_019caf13ee8800cf09780e5e9f11dcd1',
        event_id: 'msg_019caf13ee88750040736ab34cf7c6e8',
        attempt: 1,
        outcome: 'delivered',
        status_code: 200,
        latency_ms: 42,
        response_head: '{"ok":true}',
        error: null,
        started_at: '2026-03-02T15:09:40.000Z',
        finished_at: '2026-03-02T15:09:40.042Z',
      },
    ],
  },

  'POST /admin/orgs/:org_id/conversion-destinations': destination,
  'GET /admin/orgs/:org_id/conversion-destinations': { destinations: [destination] },
  'GET /admin/orgs/:org_id/conversion-destinations/:destination_id': {
    ...destination,
    uploads: {
      last_success_at: '2026-03-02T15:09:40.000Z',
      pending: 1,
      sent: 58,
      failed: 2,
      retracted: 0,
      not_retractable: 0,
      failed_by_reason: { no_click_id: 2 },
    },
  },
  'PATCH /admin/orgs/:org_id/conversion-destinations/:destination_id': {
    ...destination,
    enabled: false,
    updated_at: UPDATED,
  },
  'GET /admin/orgs/:org_id/conversion-destinations/:destination_id/uploads': page([
    {
      upload_id: 'cup_019caf13ee88b56631c0d38a33587a1f',
      call_id: CALL_ID,
      kind: 'conversion',
      dedupe_key: CALL_ID,
      status: 'sent',
      attempts: 1,
      reason_code: null,
      reason: null,
      next_attempt_at: null,
      sent_at: '2026-03-02T15:09:40.000Z',
      created_at: '2026-03-02T15:07:33.000Z',
    },
  ]),
  'GET /admin/orgs/:org_id/conversion-destinations/:destination_id/attempts': {
    attempts: [
      {
        attempt_id: 'cua_019caf190b20ebb3e44d82dab6f07535',
        upload_id: 'cup_019caf13ee88b56631c0d38a33587a1f',
        attempt: 1,
        outcome: 'sent',
        status_code: 200,
        reason: null,
        started_at: '2026-03-02T15:09:40.000Z',
        finished_at: '2026-03-02T15:09:40.000Z',
      },
    ],
  },
  'POST /admin/orgs/:org_id/conversion-destinations/:destination_id/test': {
    destination_id: DESTINATION_ID,
    platform: 'meta',
    ok: true,
    status_code: 200,
    checked: [
      'the access token and the pixel (dataset)',
      'a sample Lead event, in Test Events only (settings.test_event_code; nothing counted)',
    ],
    result: { state: 'accepted' },
    answer: { events_received: 1, messages: [], fbtrace_id: 'A7Xq2bR9cYtLm0pK' },
  },
  'POST /admin/orgs/:org_id/conversion-destinations/:destination_id/retry': {
    destination_id: DESTINATION_ID,
    queued: 2,
  },
  'POST /admin/orgs/:org_id/conversion-destinations/:destination_id/replay': {
    destination_id: DESTINATION_ID,
    queued: 14,
    skipped: [
      {
        call_id: 'call_019caf131f80d9580a2947e7c8029bca',
        reason_code: 'no_click_id',
        reason: 'the session carries no click id this platform accepts',
      },
    ],
  },

  'POST /admin/orgs/:org_id/buyers': buyer,
  'GET /admin/orgs/:org_id/buyers': page([buyer]),
  'GET /admin/orgs/:org_id/buyers/:buyer_id': buyer,
  'PATCH /admin/orgs/:org_id/buyers/:buyer_id': { ...buyer, status: 'paused', updated_at: UPDATED },
  'GET /admin/orgs/:org_id/campaigns/:code/routing': routing,
  'PUT /admin/orgs/:org_id/campaigns/:code/routing': routing,

  'GET /admin/orgs/:org_id/audit': page([
    {
      id: 'aud_019caf13ee8894e2c96af92e47fafd9f',
      at: UPDATED,
      actor: 'admin',
      action: 'org.updated',
      subject_type: 'org',
      subject_id: ORG_ID,
      detail: { tracking_enabled: false },
      request_id: 'bb850033-b5be-4e80-acd9-1497fc319210',
    },
  ]),
  'GET /admin/orgs/:org_id/campaigns/:code/exports/conversions': {
    data: [
      {
        event_name: 'Lead',
        event_time: 1772463845,
        event_id: 'evt_019caf13ee8847f3d5380ce1a64106ad',
        action_source: 'phone_call',
        user_data: { fbc: 'fb.1.1772463792000.IwAR2xYz' },
        custom_data: { value: 25, currency: 'USD' },
      },
    ],
  },
};

/** Examples of answers that are not JSON, by operation and media type. */
export const TEXT_RESPONSE_EXAMPLES: Record<string, Record<string, string>> = {
  'GET /admin/orgs/:org_id/campaigns/:code/exports/conversions': {
    'text/csv': [
      'Parameters:TimeZone=America/Chicago',
      'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency',
      'Cj0KCQiA,Phone lead,2026-03-02 09:04:05-0600,25,USD',
      '',
    ].join('\n'),
  },
  'POST /admin/orgs/:org_id/consents/import': {
    'application/x-ndjson': [
      '{"progress":{"rows":0,"total":3,"imported":0,"duplicates":0,"rejected":0}}',
      '{"progress":{"rows":3,"total":3,"imported":2,"duplicates":0,"rejected":1}}',
      '{"summary":{"rows":3,"imported":2,"duplicates":0,"rejected_count":1,"rejected":[{"line":4,"errors":["tier: must be pewc, pec or ebr"]}]}}',
      '',
    ].join('\n'),
  },
  'GET /metrics': {
    'text/plain': [
      '# HELP http_requests_total Requests by route and status',
      '# TYPE http_requests_total counter',
      'http_requests_total{method="POST",route="/v1/dni/sessions",status="200"} 1532',
      '',
    ].join('\n'),
  },
};

/** An example for each path parameter, by name: the ids of the answers above. */
export const PARAMETER_EXAMPLES: Record<string, string> = {
  org_id: ORG_ID,
  key_id: KEY_ID,
  code: 'spr',
  e164: CALLER,
  list: 'internal',
  call_id: CALL_ID,
  touch_id: TOUCH_ID,
  webhook_id: WEBHOOK_ID,
  destination_id: DESTINATION_ID,
  buyer_id: BUYER_ID,
};
