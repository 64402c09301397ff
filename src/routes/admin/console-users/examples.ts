import { CREATED, ORG_ID } from '../shared/example-values.js';

/** Request bodies of the console-users operations, by `METHOD /url`. */
export const requestExamples: Record<string, unknown> = {
  'POST /admin/console/users': {
    email: 'ops@example.com',
    role: 'operator',
    password: 'correct horse battery staple',
  },
  'POST /admin/console/links': {
    kind: 'invitation',
    email: 'analyst@example.com',
    role: 'viewer',
    org_id: 'org_019caf103180779e8db690243ac46f11',
  },
};

/** Success answers of the console-users operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
  'POST /admin/console/users': {
    user_id: 'usr_019caf103180a8c1d4e2f3b5a6c7d8e9',
    email: 'ops@example.com',
    role: 'operator',
    org_id: null,
    created_at: CREATED,
  },
  'POST /admin/console/links': {
    kind: 'invitation',
    email: 'analyst@example.com',
    role: 'viewer',
    org_id: ORG_ID,
    url: 'https://calls.example.com/invite/Zq3v9L0s2mXb7RkT1yWc4hJd8uNe5pAf',
    expires_at: '2026-03-09T15:00:00.000Z',
  },
};
