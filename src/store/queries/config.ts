import { and, asc, desc, eq, gt, isNotNull, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { ConfigQueries, KeyStatus } from '../../domain/admin/queries.js';
import type { Db } from '../db.js';
import { apiKeys, campaigns, dniSessions, orgs, trackingNumbers } from '../schema/index.js';
import { beforeCursor, eqIfGiven, orgRows } from './org-rows.js';

/**
 * Lists of the admin API's configuration rows: organizations, keys, campaigns
 * and a campaign's numbers. Each reads `limit` rows (the route asks for one
 * more than it shows, see paging.ts) strictly after `after`, newest first by
 * id (ids begin with their creation time), numbers in number order.
 */

/** The same reading as the keyring: revoked wins, then an expiry that has passed. */
function keyStatusIs(status: KeyStatus, now: Date): SQL | undefined {
  if (status === 'revoked') return isNotNull(apiKeys.revokedAt);
  if (status === 'expired') return and(isNull(apiKeys.revokedAt), lte(apiKeys.expiresAt, now));
  return and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now)));
}

/**
 * A number's latest holder is `held_by` (a DNI session); it holds the number
 * while `held_until` is ahead, so a holder whose time has passed is not shown.
 */
function numbersQuery(db: Db, campaignId: string, where: (SQL | undefined)[], now: Date) {
  const live = gt(trackingNumbers.heldUntil, now);
  return db
    .select({
      number: trackingNumbers,
      sessionId: sql<string | null>`case when ${live} then ${dniSessions.id} end`,
      visitorId: sql<string | null>`case when ${live} then ${dniSessions.visitorId} end`,
    })
    .from(trackingNumbers)
    .leftJoin(dniSessions, eq(dniSessions.id, trackingNumbers.heldBy))
    .where(and(eq(trackingNumbers.campaignId, campaignId), ...where));
}

export function createConfigQueries(db: Db): ConfigQueries {
  return {
    listOrgs: (w) =>
      db
        .select()
        .from(orgs)
        .where(beforeCursor(orgs.id, w.after))
        .orderBy(desc(orgs.id))
        .limit(w.limit),

    listKeys: (orgId, w) =>
      orgRows(
        db,
        apiKeys,
        orgId,
        [beforeCursor(apiKeys.id, w.after), w.status ? keyStatusIs(w.status, w.now) : undefined],
        [desc(apiKeys.id)],
        w.limit,
      ),

    async findKey(keyId) {
      const [k] = await db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
      return k ?? null;
    },

    /** Campaigns with the size of their pool, not the pool: a pool may hold thousands of numbers. */
    listCampaigns(orgId, w) {
      const count = (role: string) =>
        sql<number>`(select count(*)::int from tracking_numbers n where n.campaign_id = ${campaigns.id} and n.role = ${role})`;
      return db
        .select({
          campaign: campaigns,
          poolSize: count('pool'),
          overflowNumber: sql<
            string | null
          >`(select n.e164 from tracking_numbers n where n.campaign_id = ${campaigns.id} and n.role = 'overflow' limit 1)`,
        })
        .from(campaigns)
        .where(and(eq(campaigns.orgId, orgId), beforeCursor(campaigns.id, w.after)))
        .orderBy(desc(campaigns.id))
        .limit(w.limit);
    },

    async findCampaign(orgId, code) {
      const [c] = await orgRows(db, campaigns, orgId, [eq(campaigns.code, code)], []);
      return c ?? null;
    },

    listNumbers(campaignId, w) {
      const held = gt(trackingNumbers.heldUntil, w.now);
      const free = or(isNull(trackingNumbers.heldUntil), lte(trackingNumbers.heldUntil, w.now));
      return numbersQuery(
        db,
        campaignId,
        [
          w.after ? gt(trackingNumbers.e164, w.after) : undefined,
          eqIfGiven(trackingNumbers.role, w.role),
          w.state === 'held' ? held : w.state === 'free' ? free : undefined,
        ],
        w.now,
      )
        .orderBy(asc(trackingNumbers.e164))
        .limit(w.limit);
    },

    async findNumber(campaignId, e164, now) {
      const [n] = await numbersQuery(db, campaignId, [eq(trackingNumbers.e164, e164)], now);
      return n ?? null;
    },
  };
}
