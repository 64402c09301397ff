import { CREATED, ORG_ID, page, UPDATED } from '../shared/example-values.js';

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

/** Request bodies of the orgs operations, by `METHOD /url`. */
export const requestExamples: Record<string, unknown> = {
  'POST /admin/orgs': {
    name: 'Acme Plumbing',
    tracking_enabled: true,
    dni_rate_limit_per_minute: 600,
    time_zone: 'America/Chicago',
  },
  'PATCH /admin/orgs/:org_id': { tracking_enabled: false },
};

/** Success answers of the orgs operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
  'POST /admin/orgs': org,
  'GET /admin/orgs': page([org], 'b3JnXzAxOWNhZjEwMzE4MDc3OWU4ZGI2OTAyNDNhYzQ2ZjEx'),
  'GET /admin/orgs/:org_id': org,
  'PATCH /admin/orgs/:org_id': { ...org, tracking_enabled: false, updated_at: UPDATED },
};
