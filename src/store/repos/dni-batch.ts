import type { Store } from '../db.js';
import type { OpenedSession } from './dni.js';

export interface SessionRequest {
  visitorId: string;
  at: Date;
  newSessionId: string;
}

interface Row extends Record<string, unknown> {
  ord: string | number;
  session_id: string;
  tracking_number: string;
  expires_at: Date | string;
  outcome: OpenedSession['outcome'];
  campaign_id: string;
}

/**
 * Many DNI requests of one campaign in one round trip, each through
 * dni_open_session in the given order, so each sees the ones before it: the
 * same allocation as openSession, for replaying traffic (npm run simulate)
 * where one statement per request would cost more than the allocation itself.
 * No attributes are stored. Null: no such campaign in this organization.
 */
export async function openSessionBatch(
  store: Store,
  orgId: string,
  campaignCode: string,
  requests: readonly SessionRequest[],
): Promise<OpenedSession[] | null> {
  if (requests.length === 0) return [];
  const rows = await store.query<Row>(
    `select u.ord, f.* from unnest($3::text[], $4::timestamptz[], $5::text[])
            with ordinality as u(visitor, at, id, ord)
       cross join lateral dni_open_session($1, $2, u.visitor, u.at, u.id, '{}'::jsonb) as f
      order by u.ord`,
    [
      orgId,
      campaignCode,
      requests.map((r) => r.visitorId),
      requests.map((r) => r.at.toISOString()),
      requests.map((r) => r.newSessionId),
    ],
  );
  if (rows.length === 0) return null;
  return rows.map((r) => ({
    sessionId: r.session_id,
    trackingNumber: r.tracking_number,
    expiresAt: new Date(r.expires_at),
    outcome: r.outcome,
    campaignId: r.campaign_id,
  }));
}
