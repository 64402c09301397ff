import { and, asc, count, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type {
  ActivityQueries,
  CallFilter,
  CallOutcome,
  TimeRange,
} from '../../domain/admin/queries.js';
import { foldSource } from '../../domain/reports/sources.js';
import type { Db } from '../db.js';
import { toEvent } from '../repos/consents.js';
import { calls, campaigns, dniSessions } from '../schema/index.js';
import { carrierAttempts, consentEvents, outboundTouches } from '../schema/outbound.js';
import { buyerReportEvents } from '../schema/reports.js';
import { beforeCursor, eqIfGiven, orgRows } from './org-rows.js';

/**
 * Lists of what happened in an organization: calls, touches, consent events.
 * Newest first; `since` is inclusive and `until` exclusive, as in the audit
 * log, so consecutive windows neither overlap nor leave gaps.
 */

function range(column: Parameters<typeof gte>[0], r: TimeRange): (SQL | undefined)[] {
  return [r.since ? gte(column, r.since) : undefined, r.until ? lt(column, r.until) : undefined];
}

/** A call's source as reports name it (report_source of its session), `unattributed` without one. */
const d = dniSessions;
const callSource = sql<string>`case when ${d.id} is null then 'unattributed'
  else report_source(${d.utmSource}, ${d.gclid}, ${d.gbraid}, ${d.wbraid}, ${d.fbclid}, ${d.fbc}, ${d.msclkid}) end`;

/**
 * A call with its campaign's code and the session it was attributed to, when there is one (the
 * whole session row: the console's call page shows its number, kind and hits too), and its source
 * as reports name it (trimmed and lowercased by the database, as the report triggers store it).
 */
export function callsQuery(db: Db, orgId: string, where: (SQL | undefined)[]) {
  return db
    .select({ call: calls, campaignCode: campaigns.code, session: dniSessions, source: callSource })
    .from(calls)
    .innerJoin(campaigns, eq(campaigns.id, calls.campaignId))
    .leftJoin(dniSessions, eq(dniSessions.id, calls.dniSessionId))
    .where(and(eq(calls.orgId, orgId), ...where));
}

/** What the carrier said, as reports count it (report_call_outcome): answered, missed, pending. */
function outcomeIs(outcome: CallOutcome | undefined): SQL | undefined {
  if (outcome === undefined) return undefined;
  const o = sql`report_call_outcome(${calls.status}, ${calls.durationSeconds})`;
  return outcome === 'pending' ? sql`${o} is null` : sql`${o} = ${outcome}`;
}

/**
 * Calls in the order they started, latest first (ties by id), so a call
 * recorded late (a backdated one, a carrier's late event) takes its place in
 * time. The cursor is the last call's id; the page goes on from its (start, id).
 */
function startedBefore(orgId: string, after: string | undefined): SQL | undefined {
  if (!after) return undefined;
  // With org_id in the row, the comparison is a range of calls_org_started_idx (migration 0053).
  return sql`(${calls.orgId}, ${calls.startedAt}, ${calls.id}) < (select c.org_id, c.started_at, c.id from calls c where c.org_id = ${orgId} and c.id = ${after})`;
}

/** Every filter the calls lists take (the admin API's and the console's). */
export function callFilters(orgId: string, f: CallFilter & { after?: string | undefined }) {
  return [
    startedBefore(orgId, f.after),
    eqIfGiven(calls.campaignId, f.campaignId),
    eqIfGiven(calls.status, f.status),
    eqIfGiven(calls.attribution, f.attribution),
    outcomeIs(f.outcome),
    f.source === undefined ? undefined : sql`${callSource} = ${foldSource(f.source)}`,
    ...range(calls.startedAt, f),
  ];
}

export const callOrder = [desc(calls.startedAt), desc(calls.id)] as const;

// Long on purpose: one small query per method of ActivityQueries, each closing over `db`.
export function createActivityQueries(db: Db): ActivityQueries {
  return {
    listCalls: (orgId, w) =>
      callsQuery(db, orgId, callFilters(orgId, w))
        .orderBy(...callOrder)
        .limit(w.limit),

    async findCall(orgId, callId) {
      const [c] = await callsQuery(db, orgId, [eq(calls.id, callId)]);
      return c ?? null;
    },

    callReports: (orgId, callId) =>
      db
        .select({
          id: buyerReportEvents.id,
          reportId: buyerReportEvents.reportId,
          disposition: buyerReportEvents.disposition,
          notes: buyerReportEvents.notes,
          keyId: buyerReportEvents.keyId,
          at: buyerReportEvents.at,
        })
        .from(buyerReportEvents)
        .where(and(eq(buyerReportEvents.callId, callId), eq(buyerReportEvents.orgId, orgId)))
        .orderBy(asc(buyerReportEvents.seq)),

    listTouches: (orgId, w) =>
      db
        .select({ touch: outboundTouches, campaignCode: campaigns.code })
        .from(outboundTouches)
        .innerJoin(campaigns, eq(campaigns.id, outboundTouches.campaignId))
        .where(
          and(
            eq(outboundTouches.orgId, orgId),
            beforeCursor(outboundTouches.id, w.after),
            eqIfGiven(outboundTouches.campaignId, w.campaignId),
            eqIfGiven(outboundTouches.status, w.status),
            eqIfGiven(outboundTouches.dispatchStatus, w.dispatchStatus),
            eqIfGiven(outboundTouches.toE164, w.toE164),
            ...range(outboundTouches.decidedAt, w),
          ),
        )
        .orderBy(desc(outboundTouches.id))
        .limit(w.limit),

    async findTouch(orgId, touchId) {
      const [t] = await orgRows(db, outboundTouches, orgId, [eq(outboundTouches.id, touchId)], []);
      return t ?? null;
    },

    touchAttempts: (orgId, touchId) =>
      orgRows(
        db,
        carrierAttempts,
        orgId,
        [eq(carrierAttempts.touchId, touchId)],
        [asc(carrierAttempts.attempt), asc(carrierAttempts.startedAt)],
      ),

    /** Consent events as recorded (`since`/`until` on recorded_at), newest first. */
    async listConsentEvents(orgId, w) {
      const where = [
        w.after !== undefined ? lt(consentEvents.seq, w.after) : undefined,
        eqIfGiven(consentEvents.e164, w.e164),
        eqIfGiven(consentEvents.kind, w.kind),
        ...range(consentEvents.recordedAt, w),
      ];
      const rows = await orgRows(
        db,
        consentEvents,
        orgId,
        where,
        [desc(consentEvents.seq)],
        w.limit,
      );
      return rows.map((r) => ({ ...toEvent(r), seq: r.seq, e164: r.e164 }));
    },

    async countConsentEvents(orgId, f) {
      const [row] = await db
        .select({ n: count() })
        .from(consentEvents)
        .where(
          and(
            eq(consentEvents.orgId, orgId),
            eqIfGiven(consentEvents.e164, f.e164),
            eqIfGiven(consentEvents.kind, f.kind),
            ...range(consentEvents.recordedAt, f),
          ),
        );
      return Number(row?.n ?? 0);
    },
  };
}
