import { and, eq, inArray, sql } from 'drizzle-orm';
import { CLARIFICATION_SCENARIO } from '../../domain/carrier-inbound/opt-out.js';
import type {
  KeypressTouch,
  NumberOwner,
  OptOutRepository,
} from '../../domain/carrier-inbound/ports.js';
import { normalizeE164 } from '../../domain/phone/e164.js';
import type { Executor } from '../db.js';
import { first } from '../rows.js';
import { campaigns, numberOwners, orgs, ownedNumber, trackingNumbers } from '../schema/index.js';
import { outboundTouches } from '../schema/outbound.js';

export type { KeypressTouch, NumberOwner };

type Config = Record<string, unknown> & { variants?: Record<string, Record<string, unknown>> };

function callerIds(config: Config): string[] {
  const ids = [config.caller_id];
  if (config.variants && typeof config.variants === 'object') {
    for (const v of Object.values(config.variants)) ids.push(v?.caller_id);
  }
  return ids.flatMap((id) => (typeof id === 'string' ? [normalizeE164(id) ?? id] : []));
}

/**
 * Every organization that owns a number: as a tracking number (pool or overflow) or as a
 * campaign's caller id (base config or a variant). Normally one; when two organizations claim
 * the same caller id, a reply to it binds both (the stricter reading).
 */
export async function ownersOfNumber(ex: Executor, e164: string): Promise<NumberOwner[]> {
  const pooled = await ex
    .select({ orgId: trackingNumbers.orgId, campaignId: trackingNumbers.campaignId })
    .from(numberOwners)
    .innerJoin(trackingNumbers, ownedNumber())
    .where(eq(numberOwners.e164, e164));
  // Caller ids live in the campaign config; the digits narrow the scan before the exact check.
  const digits = e164.replace(/\D/g, '').slice(-10);
  const candidates = await ex
    .select({ id: campaigns.id, orgId: campaigns.orgId, config: campaigns.config })
    .from(campaigns)
    .where(sql`strpos(${campaigns.config}::text, ${digits}) > 0`);
  const byCampaign = new Map<string, string>();
  for (const p of pooled) byCampaign.set(p.campaignId, p.orgId);
  for (const c of candidates) {
    if (callerIds(c.config as Config).includes(e164)) byCampaign.set(c.id, c.orgId);
  }
  if (byCampaign.size === 0) return [];
  const ids = [...byCampaign.keys()].sort();
  const rows = await ex
    .select({ id: campaigns.id, orgId: campaigns.orgId, config: campaigns.config })
    .from(campaigns)
    .where(inArray(campaigns.id, ids));
  const orgIds = [...new Set(rows.map((r) => r.orgId))].sort();
  const orgRows = await ex
    .select({
      id: orgs.id,
      optOutPhrases: orgs.optOutPhrases,
      optOutClarification: orgs.optOutClarification,
    })
    .from(orgs)
    .where(inArray(orgs.id, orgIds));
  return orgIds.map((orgId) => ({
    orgId,
    optOutPhrases: orgRows.find((o) => o.id === orgId)?.optOutPhrases ?? [],
    optOutClarification: orgRows.find((o) => o.id === orgId)?.optOutClarification ?? false,
    campaigns: rows
      .filter((r) => r.orgId === orgId)
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((r) => ({ id: r.id, config: (r.config ?? {}) as Record<string, unknown> })),
  }));
}

/** The touch a keypress answers, whatever its organization: the id in the URL is the only key. */
export async function touchForKeypress(
  ex: Executor,
  touchId: string,
): Promise<KeypressTouch | null> {
  return first(
    ex
      .select({
        id: outboundTouches.id,
        orgId: outboundTouches.orgId,
        campaignId: outboundTouches.campaignId,
        toE164: outboundTouches.toE164,
        channel: outboundTouches.channel,
      })
      .from(outboundTouches)
      .where(eq(outboundTouches.id, touchId)),
  );
}

/** The MessageSids of the replies a clarification text to the contact answered (opt-out.ts). */
export async function clarificationsSent(
  ex: Executor,
  orgId: string,
  contact: string,
): Promise<string[]> {
  const rows = await ex
    .select({ checks: outboundTouches.checks })
    .from(outboundTouches)
    .where(
      and(
        eq(outboundTouches.orgId, orgId),
        eq(outboundTouches.toE164, contact),
        eq(outboundTouches.scenarioRef, CLARIFICATION_SCENARIO),
      ),
    );
  return rows.flatMap((r) => {
    const sid = (r.checks as { reply?: { message_sid?: unknown } } | null)?.reply?.message_sid;
    return typeof sid === 'string' ? [sid] : [];
  });
}

/** `repos.optOuts`. */
export function createOptOutRepository(): OptOutRepository {
  return { ownersOfNumber, touchForKeypress, clarificationsSent };
}
