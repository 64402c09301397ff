import { type SQL, sql } from 'drizzle-orm';
import { newId } from '../../domain/ids.js';
import type { AuditEntry, AuditLog } from '../../domain/ports.js';
import type { Executor } from '../db.js';
import { hotRows } from '../rows.js';

export type { AuditEntry };

/**
 * An audit entry as a row, in one place: writeAudit inserts it alone, and a statement that
 * also writes what it records (a hot path's one round trip) inserts it with
 * `insert into audit_log (AUDIT_COLUMNS) select auditPlaceholders(n) from …`, with
 * auditValues(e) as the parameters from `$n` on; a Drizzle template inserts auditRow(e).
 */
export const AUDIT_COLUMNS =
  'id, org_id, actor, action, subject_type, subject_id, detail, request_id, at';

export const auditPlaceholders = (n: number): string =>
  [0, 1, 2, 3, 4, 5, 6, 7, 8]
    .map((i) => `$${n + i}${i === 6 ? '::jsonb' : i === 8 ? '::timestamptz' : ''}`)
    .join(', ');

export const auditValues = (e: AuditEntry): unknown[] => [
  newId('aud', e.at.getTime()),
  e.orgId,
  e.actor,
  e.action,
  e.subjectType,
  e.subjectId,
  JSON.stringify(e.detail ?? {}),
  e.requestId ?? null,
  e.at,
];

/** auditValues(e) as a row in a Drizzle template: `insert into audit_log (AUDIT_COLUMNS) values` it. */
export function auditRow(e: AuditEntry): SQL {
  const v = auditValues(e).map((x) => (x instanceof Date ? x.toISOString() : x));
  return sql`(${v[0]}, ${v[1]}, ${v[2]}, ${v[3]}, ${v[4]}, ${v[5]}, ${v[6]}::jsonb, ${v[7]}, ${v[8]}::timestamptz)`;
}

const INSERT_AUDIT = `insert into audit_log (${AUDIT_COLUMNS}) values (${auditPlaceholders(1)})`;

/** Written in the caller's transaction, so the record and the change commit together. */
export async function writeAudit(ex: Executor, e: AuditEntry): Promise<void> {
  await hotRows(ex, INSERT_AUDIT, auditValues(e));
}

/** `repos.audit`. */
export function createAuditRepository(): AuditLog {
  return { writeAudit };
}
