import { CREATED, ORG_ID, page, UPDATED, WEBHOOK_ID } from '../shared/example-values.js';

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

/** Request bodies of the webhooks operations, by `METHOD /url`. */
export const requestExamples: Record<string, unknown> = {
  'POST /admin/orgs/:org_id/webhooks': {
    url: 'https://hooks.example.com/calls',
    events: ['call.completed', 'pool.exhausted'],
    description: 'CRM',
  },
  'PATCH /admin/orgs/:org_id/webhooks/:webhook_id': { enabled: false },
  'POST /admin/orgs/:org_id/webhooks/:webhook_id/rotate': { grace_seconds: 86400 },
  'POST /admin/orgs/:org_id/webhooks/:webhook_id/replay': { since: '2026-03-01T00:00:00Z' },
};

/** Success answers of the webhooks operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
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
};
