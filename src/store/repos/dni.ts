import type { LandingParams } from '../../domain/dni/landing-url.js';
import type { Store } from '../db.js';

export type SessionOutcome = 'sticky' | 'allocated' | 'shared' | 'overflow';

export interface OpenedSession {
  sessionId: string;
  trackingNumber: string;
  expiresAt: Date;
  outcome: SessionOutcome;
  campaignId: string;
}

export interface SessionAttributes extends Omit<LandingParams, 'gclid'> {
  gclid?: string | null;
  fbc?: string | null;
  fbp?: string | null;
  landing_url?: string | null;
}

interface Row extends Record<string, unknown> {
  session_id: string;
  tracking_number: string;
  expires_at: Date | string;
  outcome: SessionOutcome;
  campaign_id: string;
}

const OPEN_SQL = 'select * from dni_open_session($1, $2, $3, $4::timestamptz, $5, $6::jsonb)';

/**
 * Sticky lookup, allocation and insert in one statement (see the
 * dni_open_session migration). Null: no such campaign in this organization.
 */
export async function openSession(
  store: Store,
  orgId: string,
  campaignCode: string,
  visitorId: string,
  now: Date,
  newSessionId: string,
  attrs: SessionAttributes,
): Promise<OpenedSession | null> {
  const rows = await store.query<Row>(OPEN_SQL, [
    orgId,
    campaignCode,
    visitorId,
    now,
    newSessionId,
    JSON.stringify(attrs),
  ]);
  const r = rows[0];
  if (!r) return null;
  return {
    sessionId: r.session_id,
    trackingNumber: r.tracking_number,
    expiresAt: new Date(r.expires_at),
    outcome: r.outcome,
    campaignId: r.campaign_id,
  };
}

export interface PoolUsage {
  campaignId: string;
  orgId: string;
  code: string;
  total: number;
  held: number;
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
