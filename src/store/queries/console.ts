import { and, asc, eq, ilike, inArray, like, or, type SQL, sql } from 'drizzle-orm';
import type { CallSearch, ConsoleQueries, DeliveryCountRow } from '../../domain/admin/queries.js';
import type { Db } from '../db.js';
import { orgMembers } from '../repos/console.js';
import { first, rowsOf } from '../rows.js';
import { auditLog, calls, dniSessions } from '../schema/index.js';
import { buyerReportEvents } from '../schema/reports.js';
import { callFilters, callOrder, callsQuery } from './activity.js';

/**
 * The console's reads beyond the admin API's lists: a call search and a
 * call's story. Organization first; another organization's rows never match.
 */

const likeText = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function matchOf(q: string): SQL | undefined {
  const text = q.trim();
  if (!text) return undefined;
  if (/^call_[0-9a-f]+$/.test(text)) return eq(calls.id, text);
  const digits = text.replace(/[\s().-]/g, '');
  if (/^\+?\d{3,15}$/.test(digits)) {
    const d = likeText(digits.replace(/^\+/, ''));
    return or(like(calls.fromNumber, d), like(calls.trackingNumber, d));
  }
  const t = likeText(text);
  return or(
    ilike(dniSessions.utmSource, t),
    ilike(dniSessions.utmCampaign, t),
    ilike(dniSessions.utmMedium, t),
    ilike(dniSessions.landingUrl, t),
  );
}

function searchCalls(db: Db, orgId: string, s: CallSearch) {
  return callsQuery(db, orgId, [
    ...callFilters(orgId, s),
    s.buyerId === undefined ? undefined : eq(calls.buyerId, s.buyerId),
    s.q ? matchOf(s.q) : undefined,
  ])
    .orderBy(...callOrder)
    .limit(s.limit);
}

/** Every buyer report of the call, oldest first: the last one is the current disposition. */
function callReports(ex: Db, orgId: string, callId: string) {
  return ex
    .select()
    .from(buyerReportEvents)
    .where(and(eq(buyerReportEvents.orgId, orgId), eq(buyerReportEvents.callId, callId)))
    .orderBy(asc(buyerReportEvents.seq));
}

/** The audit lines about the call and its report events, oldest first. */
function callAudit(ex: Db, orgId: string, subjectIds: string[]) {
  return ex
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.orgId, orgId), inArray(auditLog.subjectId, subjectIds)))
    .orderBy(asc(auditLog.seq))
    .limit(200);
}

/**
 * Each suppression list of the organization (SUPPRESSION_LISTS: the US and Canadian national
 * registries apart): entries, and its newest import (freshness).
 */
function suppressionSummary(ex: Db, orgId: string) {
  return rowsOf<{
    list: string;
    entries: number;
    listed_on: string | null;
    imported_at: string | null;
  }>(
    ex,
    sql`select l.list,
          (select count(*)::int from suppression_entries e where e.org_id = ${orgId} and e.list = l.list) as entries,
          (select max(listed_on)::text from suppression_imports i where i.org_id = ${orgId} and i.list = l.list) as listed_on,
          (select max(finished_at) from suppression_imports i where i.org_id = ${orgId} and i.list = l.list) as imported_at
        from (values ('internal'), ('national'), ('national_ca'), ('state'), ('litigator')) as l(list)`,
  );
}

/**
 * Counted per endpoint over (endpoint_id, created_at), the deliveries' own
 * index; endpoints without a delivery in the range count zero.
 */
function deliveryCounts(ex: Db, orgId: string, since: Date, until: Date) {
  return rowsOf<DeliveryCountRow>(
    ex,
    sql`select e.id as "endpointId",
          count(d.id)::int as total,
          count(d.id) filter (where d.state = 'delivered')::int as delivered,
          count(d.id) filter (where d.state = 'failed')::int as failed,
          count(d.id) filter (where d.state = 'pending' and d.attempts > 0)::int as retrying,
          count(d.id) filter (where d.state = 'pending' and d.attempts = 0)::int as queued
        from webhook_endpoints e
        left join webhook_deliveries d on d.endpoint_id = e.id and d.org_id = ${orgId}
          and d.created_at >= ${since.toISOString()}::timestamptz
          and d.created_at < ${until.toISOString()}::timestamptz
        where e.org_id = ${orgId}
        group by e.id`,
  );
}

export function createConsoleQueries(db: Db): ConsoleQueries {
  return {
    searchCalls: (orgId, s) => searchCalls(db, orgId, s),
    async findCall(orgId, callId) {
      return first(callsQuery(db, orgId, [eq(calls.id, callId)]));
    },
    callReports: (orgId, callId) => callReports(db, orgId, callId),
    callAudit: (orgId, subjectIds) => callAudit(db, orgId, subjectIds),
    suppressionSummary: (orgId) => suppressionSummary(db, orgId),
    orgMembers: (orgId) => orgMembers(db, orgId),
    deliveryCounts: (orgId, since, until) => deliveryCounts(db, orgId, since, until),
  };
}
