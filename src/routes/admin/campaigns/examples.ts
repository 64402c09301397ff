import {
  CAMPAIGN_ID,
  CREATED,
  ORG_ID,
  page,
  SESSION_ID,
  UPDATED,
} from '../shared/example-values.js';

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

/** Request bodies of the campaigns operations, by `METHOD /url`. */
export const requestExamples: Record<string, unknown> = {
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
};

/** Success answers of the campaigns operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
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
};
