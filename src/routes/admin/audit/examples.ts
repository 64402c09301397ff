import { ORG_ID, page, UPDATED } from '../shared/example-values.js';

/** Success answers of the audit operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
  'GET /admin/orgs/:org_id/audit': page([
    {
      id: 'aud_019caf13ee8894e2c96af92e47fafd9f',
      at: UPDATED,
      actor: 'admin',
      action: 'org.updated',
      subject_type: 'org',
      subject_id: ORG_ID,
      detail: { tracking_enabled: false },
      request_id: 'bb850033-b5be-4e80-acd9-1497fc319210',
    },
  ]),
};
