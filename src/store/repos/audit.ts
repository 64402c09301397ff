import { and, desc, eq, gte, lt, lte } from 'drizzle-orm';
import { newId } from '../../domain/ids.js';
import type { Executor } from '../db.js';
import { auditLog } from '../schema.js';

export interface AuditEntry {
  orgId: string | null;
  actor: string;
  action: string;
  subjectType: string;
  subjectId: string;
  detail?: Record<string, unknown>;
  requestId?: string | null;
  at: Date;
}

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
  action?: string | undefined;
  since?: Date | undefined;
  until?: Date | undefined;
  /** The `seq` of the last entry of the previous page. */
  before?: number | undefined;
}

export async function listAudit(ex: Executor, orgId: string, q: AuditQuery) {
  const conds = [eq(auditLog.orgId, orgId)];
  if (q.action) conds.push(eq(auditLog.action, q.action));
  if (q.since) conds.push(gte(auditLog.at, q.since));
  if (q.until) conds.push(lte(auditLog.at, q.until));
  if (q.before !== undefined) conds.push(lt(auditLog.seq, q.before));
  return ex
    .select()
    .from(auditLog)
    .where(and(...conds))
    .orderBy(desc(auditLog.seq))
    .limit(q.limit);
}
