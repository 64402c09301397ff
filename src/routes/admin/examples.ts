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
    org_id: 'org_3f9a1c2b7d4e5f60',
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
      { buyer_id: 'buy_019caf103180a1b2c3d4e5f6a7b8', priority: 1, weight: 3 },
      { buyer_id: 'buy_019caf103180f6e5d4c3b2a19080', priority: 1, weight: 1 },
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
