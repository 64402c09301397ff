import { and, asc, desc, eq, gt, isNotNull, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';
import type { ConfigQueries, KeyStatus } from '../../domain/admin/queries.js';
import type { Db } from '../db.js';
import { findCampaign } from '../repos/campaigns.js';
import { first } from '../rows.js';
import { apiKeys, campaigns, dniSessions, orgs, trackingNumbers } from '../schema/index.js';

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
        .where(w.after ? lt(orgs.id, w.after) : undefined)
        .orderBy(desc(orgs.id))
        .limit(w.limit),

    listKeys: (orgId, w) =>
      db
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
        .limit(w.limit),

    async findKey(keyId) {
      return first(db.select().from(apiKeys).where(eq(apiKeys.id, keyId)));
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
        .where(and(eq(campaigns.orgId, orgId), w.after ? lt(campaigns.id, w.after) : undefined))
        .orderBy(desc(campaigns.id))
        .limit(w.limit);
    },

    findCampaign: (orgId, code) => findCampaign(db, orgId, code),

    listNumbers(campaignId, w) {
      const held = gt(trackingNumbers.heldUntil, w.now);
      const free = or(isNull(trackingNumbers.heldUntil), lte(trackingNumbers.heldUntil, w.now));
      return numbersQuery(
        db,
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
    },

    async findNumber(campaignId, e164, now) {
      return first(numbersQuery(db, campaignId, [eq(trackingNumbers.e164, e164)], now));
    },
  };
}
