import { CALLER, CREATED, ORG_ID, page } from '../shared/example-values.js';

const suppressionEntry = {
  org_id: ORG_ID,
  list: 'internal',
  e164: CALLER,
  state: null,
  source: 'support ticket 4411',
  list_date: '2026-03-02',
  added_at: CREATED,
};

/** Request bodies of the suppression operations, by `METHOD /url`. */
export const requestExamples: Record<string, unknown> = {
  'PUT /admin/orgs/:org_id/suppression/settings': { litigator_blocks: true },
  'PUT /admin/orgs/:org_id/suppression/:list/:e164': { source: 'support ticket 4411' },
  'DELETE /admin/orgs/:org_id/suppression/:list/:e164': { reason: 'added by mistake' },
};

/** Success answers of the suppression operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
  'GET /admin/orgs/:org_id/suppression/settings': { litigator_blocks: false },
  'PUT /admin/orgs/:org_id/suppression/settings': { litigator_blocks: true },
  'GET /admin/orgs/:org_id/suppression/:list': page([suppressionEntry], 'MTIxMjU1NTAxNDI'),
  'GET /admin/orgs/:org_id/suppression/:list/:e164': suppressionEntry,
  'PUT /admin/orgs/:org_id/suppression/:list/:e164': suppressionEntry,
  'DELETE /admin/orgs/:org_id/suppression/:list/:e164': {
    org_id: ORG_ID,
    list: 'internal',
    e164: CALLER,
    removed: true,
    reason: 'added by mistake',
  },
  'POST /admin/orgs/:org_id/suppression/:list/import': {
    import_id: 'sim_019caf1031800ca824befd75efec5dbe',
    list: 'state',
    mode: 'add',
    listed_on: '2026-03-02',
    rows: 2,
    added: 1,
    removed: 0,
    rejected_count: 1,
    rejected: [{ line: 3, error: 'a state list needs a state column or the state parameter' }],
  },
};
