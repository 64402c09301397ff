import { CALL_ID, CALLER, CREATED, page, SESSION_ID, TOUCH_ID } from '../shared/example-values.js';

/** Success answers of the reports operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
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
};
