import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type {
  ConversionQueries,
  DestinationStats,
  UploadListQuery,
} from '../../domain/conversions/queries.js';
import type { Db, Executor } from '../db.js';
import { listDestinations } from '../repos/conversion-destinations.js';
import { rowsOf } from '../rows.js';
import {
  conversionUploadAttempts as A,
  conversionDestinations as D,
  conversionUploads as U,
} from '../schema/conversions.js';
import { beforeCursor, eqIfGiven, orgRows } from './org-rows.js';

/** Admin reads of conversion uploads (docs/conversions.md): lists, attempts, per-destination counts. */
export function createConversionQueries(db: Db): ConversionQueries {
  return {
    listDestinations: (orgId) => listDestinations(db, orgId),
    listUploads: (orgId, destinationId, q) => listUploads(db, orgId, destinationId, q),
    listUploadAttempts: (orgId, destinationId, q) =>
      listUploadAttempts(db, orgId, destinationId, q),
    destinationStats: (orgId, destinationId) => destinationStats(db, orgId, destinationId),
    listCallUploads: (orgId, callId) => listCallUploads(db, orgId, callId),
  };
}

function listUploads(ex: Executor, orgId: string, destinationId: string, q: UploadListQuery) {
  const where = [
    eq(U.destinationId, destinationId),
    eqIfGiven(U.status, q.status),
    beforeCursor(U.id, q.after),
  ];
  return orgRows(ex, U, orgId, where, [desc(U.id)], q.limit);
}

function listUploadAttempts(
  ex: Executor,
  orgId: string,
  destinationId: string,
  q: { uploadId?: string | undefined; limit: number },
) {
  const where = [eq(A.destinationId, destinationId), eqIfGiven(A.uploadId, q.uploadId)];
  return orgRows(ex, A, orgId, where, [desc(A.finishedAt), desc(A.attempt)], q.limit);
}

/** Per destination: last success, how many wait, how many failed and why. */
async function destinationStats(
  ex: Executor,
  orgId: string,
  destinationId: string,
): Promise<DestinationStats> {
  const rows = await rowsOf<{
    status: string;
    reason_code: string | null;
    n: number;
    last_sent: string | Date | null;
  }>(
    ex,
    sql`select status, reason_code, count(*)::int as n, max(sent_at) as last_sent
          from conversion_uploads where org_id = ${orgId} and destination_id = ${destinationId}
         group by status, reason_code`,
  );
  let last: Date | null = null;
  const byStatus: Record<string, number> = {};
  const failedByReason: Record<string, number> = {};
  for (const r of rows) {
    byStatus[r.status] = (byStatus[r.status] ?? 0) + Number(r.n);
    if (r.status === 'failed') failedByReason[r.reason_code ?? 'unknown'] = Number(r.n);
    if (r.last_sent) {
      const d = new Date(r.last_sent);
      if (!last || d > last) last = d;
    }
  }
  return { lastSuccessAt: last, byStatus, failedByReason };
}

/** One call's uploads with their destination, by destination then kind. */
async function listCallUploads(ex: Executor, orgId: string, callId: string) {
  const rows = await ex
    .select({ u: U, name: D.name, platform: D.platform })
    .from(U)
    .innerJoin(D, eq(D.id, U.destinationId))
    .where(and(eq(U.orgId, orgId), eq(U.callId, callId)))
    .orderBy(asc(D.name), asc(D.id), asc(U.kind));
  return rows.map((r) => ({
    ...r.u,
    destinationName: r.name,
    platform: r.platform,
  }));
}
