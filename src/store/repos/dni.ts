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

interface BatchRow extends Record<string, unknown> {
  ord: number;
  session_id: string | null;
  tracking_number: string | null;
  expires_at: Date | string | null;
  outcome: SessionOutcome | SessionOpenFailure['outcome'];
  campaign_id: string | null;
}

/** The service's batch function: dni_open_sessions with the report counters. */
export const COUNTED = 'dni_open_sessions_counted';

/**
 * The batch statement of `fn`: the service's (COUNTED, whose $7–$10 are the requests' report
 * keys: openManyParams), or one with dni_open_sessions's arguments alone: dni_open_sessions
 * itself (npm run bench -- reports measures what the counters cost) or, in the simulator, a
 * policy to compare with.
 */
export const openManySql = (fn: string = COUNTED) =>
  `select * from ${fn}($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::text[], $6::jsonb[]${
    fn === COUNTED ? ', $7::text[], $8::text[], $9::text[], $10::text[]' : ''
  })`;
const OPEN_MANY_SQL = openManySql();

/** The batch statement's parameters: the requests, then (for COUNTED) their report keys. */
export function openManyParams(
  requests: readonly SessionOpenRequest[],
  fn: string = COUNTED,
): unknown[] {
  const params: unknown[] = [
    requests.map((r) => r.orgId),
    requests.map((r) => r.campaignCode),
    requests.map((r) => r.visitorId),
    requests.map((r) => r.now.toISOString()),
    requests.map((r) => r.newSessionId),
    requests.map((r) => JSON.stringify(r.attrs)),
  ];
  if (fn !== COUNTED) return params;
  const keys = requests.map((r) => sessionReportKeys(r.attrs));
  return [
    ...params,
    keys.map((k) => k.source),
    keys.map((k) => k.medium),
    keys.map((k) => k.utmCampaign),
    keys.map((k) => k.landingPath),
  ];
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
  /** Bench and simulator only: a function with dni_open_sessions's arguments (openManySql). */
  fn: string = COUNTED,
): Promise<SessionOpenResult[]> {
  const text = fn === COUNTED ? OPEN_MANY_SQL : openManySql(fn);
  const rows = await store.query<BatchRow>(text, openManyParams(requests, fn));
  const results: SessionOpenResult[] = new Array(requests.length);
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
