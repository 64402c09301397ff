import { BUYER_2_ID, BUYER_ID, CREATED, page, UPDATED } from '../shared/example-values.js';

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

/** Request bodies of the buyers operations, by `METHOD /url`. */
export const requestExamples: Record<string, unknown> = {
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
};

/** Success answers of the buyers operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
  'POST /admin/orgs/:org_id/buyers': buyer,
  'GET /admin/orgs/:org_id/buyers': page([buyer]),
  'GET /admin/orgs/:org_id/buyers/:buyer_id': buyer,
  'PATCH /admin/orgs/:org_id/buyers/:buyer_id': { ...buyer, status: 'paused', updated_at: UPDATED },
  'GET /admin/orgs/:org_id/campaigns/:code/routing': routing,
  'PUT /admin/orgs/:org_id/campaigns/:code/routing': routing,
};
