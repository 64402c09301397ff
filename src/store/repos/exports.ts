import { and, asc, count, eq, gt, gte, or } from 'drizzle-orm';
import type {
  ConversionQuery,
  ExportCampaign,
  ExportRepository,
} from '../../domain/exports/ports.js';
import type { ConversionRow } from '../../domain/exports/types.js';
import type { Executor } from '../db.js';
import { calls, dniSessions } from '../schema/index.js';
import { findCampaign } from './campaigns.js';

export type { ConversionQuery, ExportCampaign };

const successfulCalls = (q: ConversionQuery) =>
  and(
    eq(calls.orgId, q.orgId),
    eq(calls.campaignId, q.campaignId),
    gte(calls.startedAt, q.since),
    eq(calls.disposition, 'success'),
  );

export async function countConversions(ex: Executor, q: ConversionQuery): Promise<number> {
  const [r] = await ex.select({ n: count() }).from(calls).where(successfulCalls(q));
  return Number(r?.n ?? 0);
}

/**
 * Calls whose current disposition is success, oldest first, with their
 * session's click ids; read in pages by (started_at, id) so no page is
 * skipped or repeated while reports keep arriving.
 */
export async function* conversionRows(
  ex: Executor,
  q: ConversionQuery,
  pageSize = 500,
): AsyncGenerator<ConversionRow, void, undefined> {
  let after: { startedAt: Date; id: string } | null = null;
  for (;;) {
    const page: ConversionRow[] = await ex
      .select({
        callId: calls.id,
        eventId: calls.dispositionEventId,
        startedAt: calls.startedAt,
        gclid: dniSessions.gclid,
        fbc: dniSessions.fbc,
        fbp: dniSessions.fbp,
      })
      .from(calls)
      .leftJoin(dniSessions, eq(dniSessions.id, calls.dniSessionId))
      .where(
        and(
          successfulCalls(q),
          after
            ? or(
                gt(calls.startedAt, after.startedAt),
                and(eq(calls.startedAt, after.startedAt), gt(calls.id, after.id)),
              )
            : undefined,
        ),
      )
      .orderBy(asc(calls.startedAt), asc(calls.id))
      .limit(pageSize)
      // The event id is written with the disposition, so a success always has one.
      .then((rows) => rows.map((r) => ({ ...r, eventId: r.eventId as string })));
    yield* page;
    const last = page[page.length - 1];
    if (!last || page.length < pageSize) return;
    after = { startedAt: last.startedAt, id: last.callId };
  }
}

/** `repos.exports`. */
export function createExportRepository(): ExportRepository {
  return { findExportCampaign: findCampaign, countConversions, conversionRows };
}
