import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import { errors } from '../../errors.js';
import type { Executor, Tx } from '../../store/db.js';
import { writeAudit } from '../../store/repos/audit.js';
import { campaigns, trackingNumbers } from '../../store/schema/index.js';
import { newId } from '../ids.js';
import { type AdminContext, getOrg } from './orgs-keys.js';

type CampaignRow = typeof campaigns.$inferSelect;

export interface CampaignInput {
  code?: string;
  name?: string;
  numbers?: string[];
  overflow_number?: string | null;
  forward_to?: string | null;
  session_ttl_seconds?: number;
  report_window_days?: number;
  config?: Record<string, unknown>;
}

async function view(ex: Executor, c: CampaignRow) {
  const nums = await ex
    .select({ e164: trackingNumbers.e164, role: trackingNumbers.role })
    .from(trackingNumbers)
    .where(eq(trackingNumbers.campaignId, c.id))
    .orderBy(asc(trackingNumbers.e164));
  return {
    campaign_id: c.id,
    org_id: c.orgId,
    code: c.code,
    name: c.name,
    numbers: nums.filter((n) => n.role === 'pool').map((n) => n.e164),
    overflow_number: nums.find((n) => n.role === 'overflow')?.e164 ?? null,
    forward_to: c.forwardTo,
    session_ttl_seconds: c.sessionTtlSeconds,
    report_window_days: c.reportWindowDays,
    config: c.config,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

async function getCampaign(ex: Executor, orgId: string, code: string): Promise<CampaignRow> {
  const [c] = await ex
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.orgId, orgId), eq(campaigns.code, code)));
  if (!c) throw errors.campaignNotFound();
  return c;
}

/** Adds numbers to a campaign; a number that belongs anywhere else is a 409 and nothing is written. */
async function addNumbers(
  tx: Tx,
  c: CampaignRow,
  numbers: string[],
  role: 'pool' | 'overflow',
  now: Date,
) {
  const unique = [...new Set(numbers)];
  if (unique.length === 0) return [];
  const taken = await tx
    .select({
      e164: trackingNumbers.e164,
      campaignId: trackingNumbers.campaignId,
      role: trackingNumbers.role,
    })
    .from(trackingNumbers)
    .where(inArray(trackingNumbers.e164, unique));
  const clash = taken.filter((t) => t.campaignId !== c.id || t.role !== role);
  if (clash.length > 0) {
    throw errors.conflict(`number_in_use: ${clash.map((t) => t.e164).join(', ')}`);
  }
  const fresh = unique.filter((n) => !taken.some((t) => t.e164 === n));
  if (fresh.length > 0) {
    await tx
      .insert(trackingNumbers)
      .values(
        fresh.map((e164) => ({ e164, orgId: c.orgId, campaignId: c.id, role, createdAt: now })),
      );
  }
  return fresh;
}

async function setOverflow(tx: Tx, c: CampaignRow, number: string | null, now: Date) {
  await tx
    .delete(trackingNumbers)
    .where(and(eq(trackingNumbers.campaignId, c.id), eq(trackingNumbers.role, 'overflow')));
  if (number) await addNumbers(tx, c, [number], 'overflow', now);
}

/**
 * Refreshes the planner's statistics once pool numbers changed. Without them
 * (a new table before autovacuum gets to it, or PGlite, which has no
 * autovacuum) PostgreSQL may plan dni_open_session's allocation as "read every
 * number of the campaign, then sort": 65 ms per session with a 60,000-number
 * pool instead of one index entry (bench/README.md).
 */
async function refreshPoolStatistics(ctx: AdminContext): Promise<void> {
  await ctx.db.execute(sql`analyze tracking_numbers`);
}

export async function createCampaign(
  ctx: AdminContext,
  orgId: string,
  input: CampaignInput & { code: string; name: string; numbers: string[] },
) {
  const now = ctx.now();
  const created = await ctx.db.transaction(async (tx) => {
    await getOrg(tx, orgId);
    const [existing] = await tx
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.orgId, orgId), eq(campaigns.code, input.code)));
    if (existing) throw errors.conflict('campaign_code_taken');
    const [c] = await tx
      .insert(campaigns)
      .values({
        id: newId('cmp', now.getTime()),
        orgId,
        code: input.code,
        name: input.name,
        forwardTo: input.forward_to ?? null,
        sessionTtlSeconds: input.session_ttl_seconds ?? 1800,
        reportWindowDays: input.report_window_days ?? 30,
        config: { ...input.config },
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await addNumbers(tx, c!, input.numbers, 'pool', now);
    if (input.overflow_number) await setOverflow(tx, c!, input.overflow_number, now);
    await writeAudit(tx, {
      orgId,
      actor: 'admin',
      action: 'campaign.created',
      subjectType: 'campaign',
      subjectId: c!.id,
      detail: { ...input },
      requestId: ctx.requestId,
      at: now,
    });
    return view(tx, c!);
  });
  await refreshPoolStatistics(ctx);
  return created;
}

export async function updateCampaign(
  ctx: AdminContext,
  orgId: string,
  code: string,
  input: CampaignInput,
) {
  const now = ctx.now();
  const updated = await ctx.db.transaction(async (tx) => {
    await getOrg(tx, orgId);
    const before = await getCampaign(tx, orgId, code);
    const [c] = await tx
      .update(campaigns)
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.forward_to !== undefined ? { forwardTo: input.forward_to } : {}),
        ...(input.session_ttl_seconds !== undefined
          ? { sessionTtlSeconds: input.session_ttl_seconds }
          : {}),
        ...(input.report_window_days !== undefined
          ? { reportWindowDays: input.report_window_days }
          : {}),
        ...(input.config !== undefined ? { config: input.config } : {}),
        updatedAt: now,
      })
      .where(eq(campaigns.id, before.id))
      .returning();
    if (input.numbers !== undefined) {
      // The pool becomes exactly `numbers`: sessions that hold a removed number keep it until they expire.
      await tx
        .delete(trackingNumbers)
        .where(
          and(
            eq(trackingNumbers.campaignId, before.id),
            eq(trackingNumbers.role, 'pool'),
            notInArray(trackingNumbers.e164, input.numbers),
          ),
        );
      await addNumbers(tx, c!, input.numbers, 'pool', now);
    }
    if (input.overflow_number !== undefined) await setOverflow(tx, c!, input.overflow_number, now);
    await writeAudit(tx, {
      orgId,
      actor: 'admin',
      action: 'campaign.updated',
      subjectType: 'campaign',
      subjectId: before.id,
      detail: { ...input },
      requestId: ctx.requestId,
      at: now,
    });
    return view(tx, c!);
  });
  if (input.numbers !== undefined) await refreshPoolStatistics(ctx);
  return updated;
}

export async function addCampaignNumbers(
  ctx: AdminContext,
  orgId: string,
  code: string,
  numbers: string[],
) {
  const now = ctx.now();
  const result = await ctx.db.transaction(async (tx) => {
    await getOrg(tx, orgId);
    const c = await getCampaign(tx, orgId, code);
    const added = await addNumbers(tx, c, numbers, 'pool', now);
    await writeAudit(tx, {
      orgId,
      actor: 'admin',
      action: 'campaign.numbers_added',
      subjectType: 'campaign',
      subjectId: c.id,
      detail: { numbers: added },
      requestId: ctx.requestId,
      at: now,
    });
    return view(tx, c);
  });
  await refreshPoolStatistics(ctx);
  return result;
}

export async function showCampaign(ctx: AdminContext, orgId: string, code: string) {
  await getOrg(ctx.db, orgId);
  return view(ctx.db, await getCampaign(ctx.db, orgId, code));
}
