import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type {
  ConversionQueries,
  DestinationStats,
  UploadListQuery,
} from '../../domain/conversions/queries.js';
import type { Db, Executor } from '../db.js';
import { listDestinations } from '../repos/conversion-destinations.js';
import { rowsOf } from '../rows.js';
import { conversionUploadAttempts as A, conversionUploads as U } from '../schema/conversions.js';

/** Admin reads of conversion uploads (docs/conversions.md): lists, attempts, per-destination counts. */
export function createConversionQueries(db: Db): ConversionQueries {
  return {
    listDestinations: (orgId) => listDestinations(db, orgId),
    listUploads: (orgId, destinationId, q) => listUploads(db, orgId, destinationId, q),
    listUploadAttempts: (orgId, destinationId, q) =>
      listUploadAttempts(db, orgId, destinationId, q),
    destinationStats: (orgId, destinationId) => destinationStats(db, orgId, destinationId),
  };
}

function listUploads(ex: Executor, orgId: string, destinationId: string, q: UploadListQuery) {
  return ex
    .select()
    .from(U)
    .where(
      and(
        eq(U.orgId, orgId),
        eq(U.destinationId, destinationId),
        q.status ? eq(U.status, q.status) : undefined,
        q.after ? lt(U.id, q.after) : undefined,
      ),
    )
    .orderBy(desc(U.id))
    .limit(q.limit);
}

function listUploadAttempts(
  ex: Executor,
  orgId: string,
  destinationId: string,
  q: { uploadId?: string | undefined; limit: number },
) {
  return ex
    .select()
    .from(A)
    .where(
      and(
        eq(A.orgId, orgId),
        eq(A.destinationId, destinationId),
        q.uploadId ? eq(A.uploadId, q.uploadId) : undefined,
      ),
    )
    .orderBy(desc(A.finishedAt), desc(A.attempt))
    .limit(q.limit);
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
