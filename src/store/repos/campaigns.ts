import { and, eq } from 'drizzle-orm';
import type { Executor } from '../db.js';
import { campaigns } from '../schema/index.js';

export type Campaign = typeof campaigns.$inferSelect;

/**
 * The campaign with this code in this organization, or null. A campaign of
 * another organization is null too, so callers cannot tell the two apart.
 */
export async function findCampaign(
  ex: Executor,
  orgId: string,
  code: string,
): Promise<Campaign | null> {
  const [c] = await ex
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.orgId, orgId), eq(campaigns.code, code)))
    .limit(1);
  return c ?? null;
}
