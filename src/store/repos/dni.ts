import type { PoolUsage } from '../../domain/dni/pool-gauges.js';
import type {
  SessionOpenFailure,
  SessionOpenRequest,
  SessionOpenResult,
  SessionOutcome,
  SessionStore,
} from '../../domain/dni/ports.js';
import { sessionReportKeys } from '../../domain/reports/session-keys.js';
import type { Store } from '../db.js';
import { classifyStoreError } from '../errors.js';

/** A row of dni_open_sessions (and of every function with its result). */
export interface BatchRow extends Record<string, unknown> {
  ord: number;
  session_id: string | null;
  tracking_number: string | null;
  expires_at: Date | string | null;
  outcome: SessionOutcome | SessionOpenFailure['outcome'];
  campaign_id: string | null;
}

/** dni_open_sessions' arguments as placeholders, the parameters requestArrays makes. */
export const REQUEST_ARGS =
  '$1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::jsonb[]';

/** The batch statement: dni_open_sessions_counted, the requests then their report keys. */
const OPEN_MANY_SQL = `select * from dni_open_sessions_counted(${REQUEST_ARGS}, $7::text[], $8::text[], $9::text[], $10::text[])`;

/** The statement openSessions sends (test/http/dni-plans.test.ts reads its plans). */
export const openManySql = (): string => OPEN_MANY_SQL;

/** dni_open_sessions' arguments: one array per field of the requests, in request order. */
export function requestArrays(requests: readonly SessionOpenRequest[]): unknown[] {
  return [
    requests.map((r) => r.orgId),
    requests.map((r) => r.campaignCode),
    requests.map((r) => r.visitorId),
    requests.map((r) => r.now.toISOString()),
    requests.map((r) => r.newSessionId),
    requests.map((r) => JSON.stringify(r.attrs)),
  ];
}

/** The batch statement's parameters: the requests, then their report keys. */
export function openManyParams(requests: readonly SessionOpenRequest[]): unknown[] {
  const keys = requests.map((r) => sessionReportKeys(r.attrs));
  return [
    ...requestArrays(requests),
    keys.map((k) => k.source),
    keys.map((k) => k.medium),
    keys.map((k) => k.utmCampaign),
    keys.map((k) => k.landingPath),
  ];
}

/** The batch's rows (one per request, any order) as its results, in request order. */
export function batchResults(count: number, rows: readonly BatchRow[]): SessionOpenResult[] {
  const results: SessionOpenResult[] = new Array(count);
  for (const r of rows) {
    results[r.ord - 1] =
      r.outcome === 'campaign_not_found' || r.outcome === 'no_numbers'
        ? { outcome: r.outcome }
        : {
            sessionId: r.session_id as string,
            trackingNumber: r.tracking_number as string,
            expiresAt: new Date(r.expires_at as string),
            outcome: r.outcome,
            campaignId: r.campaign_id as string,
          };
  }
  return results;
}

/**
 * Many DNI requests (any organizations and campaigns) in one statement and
 * one transaction: the batch commits before any of its answers is used. One
 * result per request, in order; each request sees those before it (a visitor
 * twice in a batch gets one session). See dni_open_sessions and dni_open_sessions_counted
 * (src/store/sql).
 */
export async function openSessions(
  store: Store,
  requests: readonly SessionOpenRequest[],
): Promise<SessionOpenResult[]> {
  const rows = await store.query<BatchRow>(OPEN_MANY_SQL, openManyParams(requests));
  return batchResults(requests.length, rows);
}

/** The DNI domain's store: batches go through openSessions. */
export function dniSessionStore(store: Store): SessionStore {
  return {
    openSessions: (requests) => openSessions(store, requests),
    // Connection loss, shutdown, a full disk: the whole batch fails (503).
    // Anything else is one request's doing: retried alone.
    retryAlone: (err) => classifyStoreError(err) === null,
  };
}

/** Pool numbers held by a live session, per campaign: read on a metrics scrape. */
export async function poolUsage(store: Store, now: Date): Promise<PoolUsage[]> {
  const rows = await store.query<{
    campaign_id: string;
    org_id: string;
    code: string;
    total: string | number;
    held: string | number;
  }>(
    `select n.campaign_id, c.org_id, c.code, count(*) as total,
            count(*) filter (where n.held_until > $1::timestamptz) as held
       from tracking_numbers n join campaigns c on c.id = n.campaign_id
      where n.role = 'pool'
      group by n.campaign_id, c.org_id, c.code`,
    [now],
  );
  return rows.map((r) => ({
    campaignId: r.campaign_id,
    orgId: r.org_id,
    code: r.code,
    total: Number(r.total),
    held: Number(r.held),
  }));
}
