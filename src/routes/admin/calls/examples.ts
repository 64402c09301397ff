import {
  BUYER_2_ID,
  BUYER_ID,
  CALL_ID,
  CALLER,
  page,
  SESSION_ID,
} from '../shared/example-values.js';

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

/** Request bodies of the calls operations, by `METHOD /url`. */
export const requestExamples: Record<string, unknown> = {
  'POST /admin/orgs/:org_id/calls': {
    to: '+14155550100',
    from: '+14155550177',
    started_at: '2026-03-02T15:04:05Z',
  },
};

/** Success answers of the calls operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
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
};
