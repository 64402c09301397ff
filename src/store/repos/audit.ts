import { and, desc, eq, gte, lt, sql } from 'drizzle-orm';
import { newId } from '../../domain/ids.js';
import type { AuditEntry } from '../../domain/ports.js';
import type { Executor } from '../db.js';
import { auditLog } from '../schema/index.js';

export type { AuditEntry };

/** Written in the caller's transaction, so the record and the change commit together. */
export async function writeAudit(ex: Executor, e: AuditEntry): Promise<void> {
  await ex.insert(auditLog).values({
    id: newId('aud', e.at.getTime()),
    orgId: e.orgId,
    actor: e.actor,
    action: e.action,
    subjectType: e.subjectType,
    subjectId: e.subjectId,
    detail: e.detail ?? {},
    requestId: e.requestId ?? null,
    at: e.at,
  });
}

export interface AuditQuery {
  limit: number;
  /** An exact action, or a prefix ending in `*` (`buyer_report.*`). */
  action?: string | undefined;
  subjectId?: string | undefined;
  /** Inclusive. */
  since?: Date | undefined;
  /** Exclusive, so consecutive windows neither overlap nor leave gaps. */
  until?: Date | undefined;
  /** The `seq` of the last entry of the previous page. */
  before?: number | undefined;
}

/** Newest first. */
export async function listAudit(ex: Executor, orgId: string, q: AuditQuery) {
  const conds = [eq(auditLog.orgId, orgId)];
  if (q.action?.endsWith('*')) {
    conds.push(sql`starts_with(${auditLog.action}, ${q.action.slice(0, -1)})`);
  } else if (q.action) conds.push(eq(auditLog.action, q.action));
  if (q.subjectId) conds.push(eq(auditLog.subjectId, q.subjectId));
  if (q.since) conds.push(gte(auditLog.at, q.since));
  if (q.until) conds.push(lt(auditLog.at, q.until));
  if (q.before !== undefined) conds.push(lt(auditLog.seq, q.before));
  return ex
    .select()
    .from(auditLog)
    .where(and(...conds))
    .orderBy(desc(auditLog.seq))
    .limit(q.limit);
}
