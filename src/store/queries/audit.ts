import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import type { AuditQueries } from '../../domain/admin/queries.js';
import type { Db } from '../db.js';
import { auditLog } from '../schema/index.js';

export function createAuditQueries(db: Db): AuditQueries {
  return {
    listAudit(orgId, q) {
      const conds = [eq(auditLog.orgId, orgId)];
      if (q.action?.endsWith('*')) {
        conds.push(sql`starts_with(${auditLog.action}, ${q.action.slice(0, -1)})`);
      } else if (q.action) conds.push(eq(auditLog.action, q.action));
      if (q.subjectId) conds.push(eq(auditLog.subjectId, q.subjectId));
      if (q.since) conds.push(gte(auditLog.at, q.since));
      if (q.until) conds.push(lt(auditLog.at, q.until));
      if (q.before !== undefined) conds.push(lt(auditLog.seq, q.before));
      return db
        .select()
        .from(auditLog)
        .where(and(...conds))
        .orderBy(desc(auditLog.seq))
        .limit(q.limit);
    },
  };
}
