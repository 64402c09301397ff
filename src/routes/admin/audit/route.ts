import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { listRoute, plainCursor } from '../shared/list-route.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { OrgIdParams } from '../shared/params.js';
import { AuditItem, AuditQuery } from './schema.js';

/** An organization's audit log (under the org-scoped plugin). */
export function auditRoute(scope: FastifyInstance, deps: AppDeps): void {
  // The cursor is the last entry's sequence number as it is (the query schema checks its form).
  listRoute(scope, `${ORG_PREFIX}/audit`, 'audit', 'An organization’s audit log, newest first', {
    doc: { params: OrgIdParams, query: AuditQuery, answer: AuditItem },
    cursor: plainCursor,
    rows: ({ params, query, after, take }) =>
      deps.queries.audit.listAudit(params.org_id, {
        limit: take,
        action: query.action,
        subjectId: query.subject_id,
        since: query.since ? new Date(query.since) : undefined,
        until: query.until ? new Date(query.until) : undefined,
        before: after === undefined ? undefined : Number(after),
      }),
    keyOf: (r) => String(r.seq),
    view: (r) => ({
      id: r.id,
      at: r.at.toISOString(),
      actor: r.actor,
      action: r.action,
      subject_type: r.subjectType,
      subject_id: r.subjectId,
      detail: r.detail,
      request_id: r.requestId,
    }),
  });
}
