import { newId } from '../../domain/ids.js';
import type { AuditEntry, AuditLog } from '../../domain/ports.js';
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

/** `repos.audit`. */
export function createAuditRepository(): AuditLog {
  return { writeAudit };
}
