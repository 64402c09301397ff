import { CREATED, KEY_ID, ORG_ID, page, UPDATED } from '../shared/example-values.js';

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

/** Request bodies of the keys operations, by `METHOD /url`. */
export const requestExamples: Record<string, unknown> = {
  'PATCH /admin/keys/:key_id': { scopes: ['enroll'] },

  'POST /admin/keys/:key_id/rotate': { grace_seconds: 3600 },
  'POST /admin/orgs/:org_id/keys': {
    scopes: ['enroll', 'execute'],
    expires_at: '2027-01-01T00:00:00Z',
    label: 'website',
  },
};

/** Success answers of the keys operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
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
};
