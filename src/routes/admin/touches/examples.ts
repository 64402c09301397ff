import {
  CALLER,
  CAMPAIGN_ID,
  CONSENT_ID,
  CREATED,
  page,
  TOUCH_ID,
} from '../shared/example-values.js';

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

/** Success answers of the touches operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
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
};
