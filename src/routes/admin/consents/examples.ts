import { CALLER, CONSENT_ID, ORG_ID, page, UPDATED } from '../shared/example-values.js';

const consentGrant = {
  id: CONSENT_ID,
  kind: 'grant',
  tier: 'pewc',
  basis: null,
  source: 'web-form',
  captured_at: '2026-01-05T10:00:00.000Z',
  expires_at: null,
  evidence: { certificate_id: 'cert-4f2a91' },
  reason: null,
  actor: 'admin',
  recorded_at: '2026-01-05T10:00:00.000Z',
};

const consent = {
  org_id: ORG_ID,
  e164: CALLER,
  status: 'active',
  tier_on_file: 'pewc',
  record_id: CONSENT_ID,
  history: [consentGrant],
};

/** Request bodies of the consents operations, by `METHOD /url`. */
export const requestExamples: Record<string, unknown> = {
  'PUT /admin/orgs/:org_id/consents/:e164': {
    tier: 'pewc',
    source: 'web-form',
    captured_at: '2026-01-05T10:00:00Z',
  },
  'POST /admin/orgs/:org_id/consents/:e164/revoke': { kind: 'opt_out', reason: 'asked by phone' },
};

/** Success answers of the consents operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
  'GET /admin/orgs/:org_id/consents': page([{ e164: CALLER, ...consentGrant }], 'Mw'),
  'GET /admin/orgs/:org_id/consents/:e164': consent,
  'PUT /admin/orgs/:org_id/consents/:e164': consent,
  'POST /admin/orgs/:org_id/consents/:e164/revoke': {
    ...consent,
    status: 'revoked',
    history: [
      {
        ...consentGrant,
        id: 'cns_019caf13ee880a9a1aa010ae95f2ceb8',
        kind: 'opt_out',
        tier: null,
        source: null,
        captured_at: UPDATED,
        evidence: {},
        reason: 'asked by phone',
        recorded_at: UPDATED,
      },
      consentGrant,
    ],
  },
  'POST /admin/orgs/:org_id/consents/import': {
    rows: 3,
    imported: 2,
    duplicates: 0,
    rejected_count: 1,
    rejected: [{ line: 4, errors: ['tier: must be pewc, pec or ebr'] }],
  },
};

/** Answers that are not JSON, by media type of the consents operations, by `METHOD /url`. */
export const textResponseExamples: Record<string, Record<string, string>> = {
  'POST /admin/orgs/:org_id/consents/import': {
    'application/x-ndjson': [
      '{"progress":{"rows":0,"total":3,"imported":0,"duplicates":0,"rejected":0}}',
      '{"progress":{"rows":3,"total":3,"imported":2,"duplicates":0,"rejected":1}}',
      '{"summary":{"rows":3,"imported":2,"duplicates":0,"rejected_count":1,"rejected":[{"line":4,"errors":["tier: must be pewc, pec or ebr"]}]}}',
      '',
    ].join('\n'),
  },
};
