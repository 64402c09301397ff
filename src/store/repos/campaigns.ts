import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type {
  Campaign,
  CampaignChange,
  CampaignNumber,
  CampaignRepository,
  NumberRole,
} from '../../domain/admin/ports.js';
import type { Executor, Tx } from '../db.js';
import { first, returned } from '../rows.js';
import { campaigns, trackingNumbers } from '../schema/index.js';

export type { Campaign };

/**
 * The campaign with this code in this organization, or null. A campaign of
 * another organization is null too, so callers cannot tell the two apart.
 */
export async function findCampaign(
  ex: Executor,
  orgId: string,
  code: string,
): Promise<Campaign | null> {
  return first(
    ex
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.orgId, orgId), eq(campaigns.code, code)))
      .limit(1),
  );
}

export async function insertCampaign(tx: Tx, c: Campaign): Promise<Campaign> {
  return returned(tx.insert(campaigns).values(c).returning());
}

export async function updateCampaign(
  tx: Tx,
  campaignId: string,
  change: CampaignChange,
): Promise<Campaign> {
  return returned(tx.update(campaigns).set(change).where(eq(campaigns.id, campaignId)).returning());
}

export async function campaignNumbers(ex: Executor, campaignId: string): Promise<CampaignNumber[]> {
  return ex
    .select({ e164: trackingNumbers.e164, role: trackingNumbers.role })
    .from(trackingNumbers)
    .where(eq(trackingNumbers.campaignId, campaignId))
    .orderBy(asc(trackingNumbers.e164));
}

export async function numbersInUse(
  tx: Tx,
  numbers: readonly string[],
): Promise<(CampaignNumber & { campaignId: string })[]> {
  return tx
    .select({
      e164: trackingNumbers.e164,
      campaignId: trackingNumbers.campaignId,
      role: trackingNumbers.role,
    })
    .from(trackingNumbers)
    .where(inArray(trackingNumbers.e164, [...numbers]));
}

export async function insertNumbers(
  tx: Tx,
  c: { orgId: string; campaignId: string },
  numbers: readonly string[],
  role: NumberRole,
  at: Date,
): Promise<void> {
  // In number order: a new pool number takes the next slot as it is inserted (migration 0017).
  await tx
    .insert(trackingNumbers)
    .values([...numbers].sort().map((e164) => ({ e164, ...c, role, createdAt: at })));
}

export async function removeNumbers(
  tx: Tx,
  campaignId: string,
  role: NumberRole,
  keep: readonly string[],
): Promise<void> {
  await tx
    .delete(trackingNumbers)
    .where(
      and(
        eq(trackingNumbers.campaignId, campaignId),
        eq(trackingNumbers.role, role),
        keep.length > 0 ? notInArray(trackingNumbers.e164, [...keep]) : undefined,
      ),
    );
}

export async function analyzeNumbers(ex: Executor): Promise<void> {
  await ex.execute(sql`analyze tracking_numbers`);
}

/** `repos.campaigns`. */
export function createCampaignRepository(): CampaignRepository {
  return {
    findCampaign,
    insertCampaign,
    updateCampaign,
    campaignNumbers,
    numbersInUse,
    insertNumbers,
    removeNumbers,
    analyzeNumbers,
  };
}
