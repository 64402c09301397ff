import { and, asc, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { ActivityQueries, TimeRange } from '../../domain/admin/queries.js';
import type { Db } from '../db.js';
import { toEvent } from '../repos/consents.js';
import { first } from '../rows.js';
import { calls, campaigns, dniSessions } from '../schema/index.js';
import { carrierAttempts, consentEvents, outboundTouches } from '../schema/outbound.js';

/**
 * Lists of what happened in an organization: calls, touches, consent events.
 * Newest first; `since` is inclusive and `until` exclusive, as in the audit
 * log, so consecutive windows neither overlap nor leave gaps.
 */

function range(column: Parameters<typeof gte>[0], r: TimeRange): (SQL | undefined)[] {
  return [r.since ? gte(column, r.since) : undefined, r.until ? lt(column, r.until) : undefined];
}

/**
 * A call with its campaign's code and the session it was attributed to, when there is one (the
 * whole session row: the console's call page shows its number, kind and hits too).
 */
export function callsQuery(db: Db, orgId: string, where: (SQL | undefined)[]) {
  return db
    .select({ call: calls, campaignCode: campaigns.code, session: dniSessions })
    .from(calls)
    .innerJoin(campaigns, eq(campaigns.id, calls.campaignId))
    .leftJoin(dniSessions, eq(dniSessions.id, calls.dniSessionId))
    .where(and(eq(calls.orgId, orgId), ...where));
}

export function createActivityQueries(db: Db): ActivityQueries {
  return {
    listCalls: (orgId, w) =>
      callsQuery(db, orgId, [
        w.after ? lt(calls.id, w.after) : undefined,
        w.campaignId ? eq(calls.campaignId, w.campaignId) : undefined,
        w.status ? eq(calls.status, w.status) : undefined,
        w.attribution ? eq(calls.attribution, w.attribution) : undefined,
        ...range(calls.startedAt, w),
      ])
        .orderBy(desc(calls.id))
        .limit(w.limit),

    async findCall(orgId, callId) {
      return first(callsQuery(db, orgId, [eq(calls.id, callId)]));
    },

    listTouches: (orgId, w) =>
      db
        .select({ touch: outboundTouches, campaignCode: campaigns.code })
        .from(outboundTouches)
        .innerJoin(campaigns, eq(campaigns.id, outboundTouches.campaignId))
        .where(
          and(
            eq(outboundTouches.orgId, orgId),
            w.after ? lt(outboundTouches.id, w.after) : undefined,
            w.campaignId ? eq(outboundTouches.campaignId, w.campaignId) : undefined,
            w.status ? eq(outboundTouches.status, w.status) : undefined,
            w.dispatchStatus ? eq(outboundTouches.dispatchStatus, w.dispatchStatus) : undefined,
            w.toE164 ? eq(outboundTouches.toE164, w.toE164) : undefined,
            ...range(outboundTouches.decidedAt, w),
          ),
        )
        .orderBy(desc(outboundTouches.id))
        .limit(w.limit),

    async findTouch(orgId, touchId) {
      return first(
        db
          .select()
          .from(outboundTouches)
          .where(and(eq(outboundTouches.orgId, orgId), eq(outboundTouches.id, touchId))),
      );
    },

    touchAttempts: (orgId, touchId) =>
      db
        .select()
        .from(carrierAttempts)
        .where(and(eq(carrierAttempts.orgId, orgId), eq(carrierAttempts.touchId, touchId)))
        .orderBy(asc(carrierAttempts.attempt), asc(carrierAttempts.startedAt)),

    /** Consent events as recorded (`since`/`until` on recorded_at), newest first. */
    async listConsentEvents(orgId, w) {
      const rows = await db
        .select()
        .from(consentEvents)
        .where(
          and(
            eq(consentEvents.orgId, orgId),
            w.after !== undefined ? lt(consentEvents.seq, w.after) : undefined,
            w.e164 ? eq(consentEvents.e164, w.e164) : undefined,
            w.kind ? eq(consentEvents.kind, w.kind) : undefined,
            ...range(consentEvents.recordedAt, w),
          ),
        )
        .orderBy(desc(consentEvents.seq))
        .limit(w.limit);
      return rows.map((r) => ({ ...toEvent(r), seq: r.seq, e164: r.e164 }));
    },

    async countConsentEvents(orgId, f) {
      const [row] = await db
        .select({ n: count() })
        .from(consentEvents)
        .where(
          and(
            eq(consentEvents.orgId, orgId),
            f.e164 ? eq(consentEvents.e164, f.e164) : undefined,
            f.kind ? eq(consentEvents.kind, f.kind) : undefined,
            ...range(consentEvents.recordedAt, f),
          ),
        );
      return Number(row?.n ?? 0);
    },
  };
}
