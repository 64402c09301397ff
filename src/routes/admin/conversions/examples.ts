import {
  CALL_ID,
  CREATED,
  DESTINATION_ID,
  ORG_ID,
  page,
  UPDATED,
} from '../shared/example-values.js';

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

/** Request bodies of the conversions operations, by `METHOD /url`. */
export const requestExamples: Record<string, unknown> = {
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

/** Success answers of the conversions operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
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
};
