import { and, asc, desc, eq, gt, isNotNull, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../db.js';
import { apiKeys, campaigns, dniSessions, orgs, trackingNumbers } from '../schema/index.js';

/**
 * Lists of the admin API's configuration rows: organizations, keys, campaigns
 * and a campaign's numbers. Each reads `limit` rows (the route asks for one
 * more than it shows, see paging.ts) strictly after `after`, newest first by
 * id (ids begin with their creation time), numbers in number order.
 */
export interface Window {
  limit: number;
  after?: string | undefined;
}

export async function listOrgs(ex: Executor, w: Window) {
  return ex
    .select()
    .from(orgs)
    .where(w.after ? lt(orgs.id, w.after) : undefined)
    .orderBy(desc(orgs.id))
    .limit(w.limit);
}

export type KeyStatus = 'active' | 'revoked' | 'expired';

/** The same reading as the keyring: revoked wins, then an expiry that has passed. */
function keyStatusIs(status: KeyStatus, now: Date): SQL | undefined {
  if (status === 'revoked') return isNotNull(apiKeys.revokedAt);
  if (status === 'expired') return and(isNull(apiKeys.revokedAt), lte(apiKeys.expiresAt, now));
  return and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)));
}

export async function listKeys(
  ex: Executor,
  orgId: string,
  w: Window & { status?: KeyStatus | undefined; now: Date },
) {
  return ex
    .select()
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.orgId, orgId),
        w.after ? lt(apiKeys.id, w.after) : undefined,
        w.status ? keyStatusIs(w.status, w.now) : undefined,
      ),
    )
    .orderBy(desc(apiKeys.id))
    .limit(w.limit);
}

export async function findKey(ex: Executor, keyId: string) {
  const [k] = await ex.select().from(apiKeys).where(eq(apiKeys.id, keyId));
  return k ?? null;
}

/** Campaigns with the size of their pool, not the pool: a pool may hold thousands of numbers. */
export async function listCampaigns(ex: Executor, orgId: string, w: Window) {
  const count = (role: string) =>
    sql<number>`(select count(*)::int from tracking_numbers n where n.campaign_id = ${campaigns.id} and n.role = ${role})`;
  return ex
    .select({
      campaign: campaigns,
      poolSize: count('pool'),
      overflowNumber: sql<
        string | null
      >`(select n.e164 from tracking_numbers n where n.campaign_id = ${campaigns.id} and n.role = 'overflow' limit 1)`,
    })
    .from(campaigns)
    .where(and(eq(campaigns.orgId, orgId), w.after ? lt(campaigns.id, w.after) : undefined))
    .orderBy(desc(campaigns.id))
    .limit(w.limit);
}

export async function findCampaignByCode(ex: Executor, orgId: string, code: string) {
  const [c] = await ex
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.orgId, orgId), eq(campaigns.code, code)));
  return c ?? null;
}

export interface NumberFilter {
  role?: 'pool' | 'overflow' | undefined;
  /** held: a live session holds it now; free: nobody does. */
  state?: 'held' | 'free' | undefined;
  now: Date;
}

/**
 * A number's latest holder is `held_by` (a DNI session); it holds the number
 * while `held_until` is ahead, so a holder whose time has passed is not shown.
 */
function numbersQuery(ex: Executor, campaignId: string, where: (SQL | undefined)[], now: Date) {
  const live = gt(trackingNumbers.heldUntil, now);
  return ex
    .select({
      number: trackingNumbers,
      sessionId: sql<string | null>`case when ${live} then ${dniSessions.id} end`,
      visitorId: sql<string | null>`case when ${live} then ${dniSessions.visitorId} end`,
    })
    .from(trackingNumbers)
    .leftJoin(dniSessions, eq(dniSessions.id, trackingNumbers.heldBy))
    .where(and(eq(trackingNumbers.campaignId, campaignId), ...where));
}

export async function listNumbers(ex: Executor, campaignId: string, w: Window & NumberFilter) {
  const held = gt(trackingNumbers.heldUntil, w.now);
  const free = or(isNull(trackingNumbers.heldUntil), lte(trackingNumbers.heldUntil, w.now));
  return numbersQuery(
    ex,
    campaignId,
    [
      w.after ? gt(trackingNumbers.e164, w.after) : undefined,
      w.role ? eq(trackingNumbers.role, w.role) : undefined,
      w.state === 'held' ? held : w.state === 'free' ? free : undefined,
    ],
    w.now,
  )
    .orderBy(asc(trackingNumbers.e164))
    .limit(w.limit);
}

export async function findNumber(ex: Executor, campaignId: string, e164: string, now: Date) {
  const [n] = await numbersQuery(ex, campaignId, [eq(trackingNumbers.e164, e164)], now);
  return n ?? null;
}
