import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Executor } from '../db.js';
import { calls, campaigns, dniSessions } from '../schema/index.js';
import { consentEvents, outboundTouches } from '../schema/outbound.js';
import type { Window } from './config.js';

/**
 * Lists of what happened in an organization: calls, touches, consent events.
 * Newest first; `since` is inclusive and `until` exclusive, as in the audit
 * log, so consecutive windows neither overlap nor leave gaps.
 */
export interface TimeRange {
  since?: Date | undefined;
  until?: Date | undefined;
}

function range(column: Parameters<typeof gte>[0], r: TimeRange): (SQL | undefined)[] {
  return [r.since ? gte(column, r.since) : undefined, r.until ? lt(column, r.until) : undefined];
}

export interface CallFilter extends TimeRange {
  campaignId?: string | undefined;
  /** The carrier's latest status (completed, busy, …). */
  status?: string | undefined;
  attribution?: string | undefined;
}

/** A call with its campaign's code and the session it was attributed to, when there is one. */
function callsQuery(ex: Executor, orgId: string, where: (SQL | undefined)[]) {
  return ex
    .select({ call: calls, campaignCode: campaigns.code, session: dniSessions })
    .from(calls)
    .innerJoin(campaigns, eq(campaigns.id, calls.campaignId))
    .leftJoin(dniSessions, eq(dniSessions.id, calls.dniSessionId))
    .where(and(eq(calls.orgId, orgId), ...where));
}

export type CallRow = Awaited<ReturnType<typeof callsQuery>>[number];

export async function listCalls(ex: Executor, orgId: string, w: Window & CallFilter) {
  return callsQuery(ex, orgId, [
    w.after ? lt(calls.id, w.after) : undefined,
    w.campaignId ? eq(calls.campaignId, w.campaignId) : undefined,
    w.status ? eq(calls.status, w.status) : undefined,
    w.attribution ? eq(calls.attribution, w.attribution) : undefined,
    ...range(calls.startedAt, w),
  ])
    .orderBy(desc(calls.id))
    .limit(w.limit);
}

export async function findCall(ex: Executor, orgId: string, callId: string) {
  const [c] = await callsQuery(ex, orgId, [eq(calls.id, callId)]);
  return c ?? null;
}

export interface TouchFilter extends TimeRange {
  campaignId?: string | undefined;
  /** The decision: queued | blocked. */
  status?: string | undefined;
  /** Placed touches: pending | delivered | failed | unknown. */
  dispatchStatus?: string | undefined;
  toE164?: string | undefined;
}

export async function listTouches(ex: Executor, orgId: string, w: Window & TouchFilter) {
  return ex
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
    .limit(w.limit);
}

export interface ConsentFilter extends TimeRange {
  e164?: string | undefined;
  /** grant | revoked | opt_out | internal_dnc */
  kind?: string | undefined;
}

/** Consent events as recorded (`since`/`until` on recorded_at), newest first. */
export async function listConsentEvents(
  ex: Executor,
  orgId: string,
  w: { limit: number; after?: number | undefined } & ConsentFilter,
) {
  return ex
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
}
