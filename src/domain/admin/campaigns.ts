import { errors } from '../../errors.js';
import { newId } from '../ids.js';
import type { CampaignConfig } from '../outbound/config-schema.js';
import type { Executor, Transaction } from '../ports.js';
import { type AdminContext, audit, getOrg } from './orgs-keys.js';
import type { Campaign, CampaignRepos, NumberRole } from './ports.js';

type CampaignRow = Campaign;
type Ctx = AdminContext<CampaignRepos>;

export interface CampaignInput {
  code?: string;
  name?: string;
  numbers?: string[];
  overflow_number?: string | null;
  forward_to?: string | null;
  session_ttl_seconds?: number;
  report_window_days?: number;
  config?: CampaignConfig;
}

async function view(repos: CampaignRepos, ex: Executor, c: CampaignRow) {
  const nums = await repos.campaigns.campaignNumbers(ex, c.id);
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

async function getCampaign(
  repos: CampaignRepos,
  ex: Executor,
  orgId: string,
  code: string,
): Promise<CampaignRow> {
  const c = await repos.campaigns.findCampaign(ex, orgId, code);
  if (!c) throw errors.campaignNotFound();
  return c;
}

/** Adds numbers to a campaign; a number that belongs anywhere else is a 409 and nothing is written. */
async function addNumbers(
  repos: CampaignRepos,
  tx: Transaction,
  c: CampaignRow,
  numbers: string[],
  role: NumberRole,
  now: Date,
) {
  const unique = [...new Set(numbers)];
  if (unique.length === 0) return [];
  const taken = await repos.campaigns.numbersInUse(tx, unique);
  const clash = taken.filter((t) => t.campaignId !== c.id || t.role !== role);
  if (clash.length > 0) {
    throw errors.conflict(`number_in_use: ${clash.map((t) => t.e164).join(', ')}`);
  }
  const fresh = unique.filter((n) => !taken.some((t) => t.e164 === n));
  if (fresh.length > 0) {
    await repos.campaigns.insertNumbers(tx, { orgId: c.orgId, campaignId: c.id }, fresh, role, now);
  }
  return fresh;
}

async function setOverflow(
  repos: CampaignRepos,
  tx: Transaction,
  c: CampaignRow,
  number: string | null,
  now: Date,
) {
  await repos.campaigns.removeNumbers(tx, c.id, 'overflow', []);
  if (number) await addNumbers(repos, tx, c, [number], 'overflow', now);
}

/**
 * Refreshes the planner's statistics once pool numbers changed. Without them
 * (a new table before autovacuum gets to it, or PGlite, which has no
 * autovacuum) PostgreSQL may plan dni_open_sessions' allocation as "read every
 * number of the campaign, then sort": 65 ms per session with a 60,000-number
 * pool instead of one index entry (bench/README.md).
 */
async function refreshPoolStatistics(ctx: Ctx): Promise<void> {
  await ctx.repos.campaigns.analyzeNumbers(ctx.repos.db);
}

export async function createCampaign(
  ctx: Ctx,
  orgId: string,
  input: CampaignInput & { code: string; name: string; numbers: string[] },
) {
  const now = ctx.now();
  const created = await ctx.repos.transaction(async (tx) => {
    await getOrg(ctx.repos, orgId, tx);
    const existing = await ctx.repos.campaigns.findCampaign(tx, orgId, input.code);
    if (existing) throw errors.conflict('campaign_code_taken');
    const c = await ctx.repos.campaigns.insertCampaign(tx, {
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
    });
    await addNumbers(ctx.repos, tx, c, input.numbers, 'pool', now);
    if (input.overflow_number) await setOverflow(ctx.repos, tx, c, input.overflow_number, now);
    await audit(tx, ctx, orgId, 'campaign.created', 'campaign', c.id, { ...input }, now);
    return view(ctx.repos, tx, c);
  });
  await refreshPoolStatistics(ctx);
  return created;
}

export async function updateCampaign(ctx: Ctx, orgId: string, code: string, input: CampaignInput) {
  const now = ctx.now();
  const updated = await ctx.repos.transaction(async (tx) => {
    await getOrg(ctx.repos, orgId, tx);
    const before = await getCampaign(ctx.repos, tx, orgId, code);
    const c = await ctx.repos.campaigns.updateCampaign(tx, before.id, {
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
    });
    if (input.numbers !== undefined) {
      // The pool becomes exactly `numbers`: sessions that hold a removed number keep it until they expire.
      await ctx.repos.campaigns.removeNumbers(tx, before.id, 'pool', input.numbers);
      await addNumbers(ctx.repos, tx, c, input.numbers, 'pool', now);
    }
    if (input.overflow_number !== undefined) {
      await setOverflow(ctx.repos, tx, c, input.overflow_number, now);
    }
    await audit(tx, ctx, orgId, 'campaign.updated', 'campaign', before.id, { ...input }, now);
    return view(ctx.repos, tx, c);
  });
  if (input.numbers !== undefined) await refreshPoolStatistics(ctx);
  return updated;
}

export async function addCampaignNumbers(ctx: Ctx, orgId: string, code: string, numbers: string[]) {
  const now = ctx.now();
  const result = await ctx.repos.transaction(async (tx) => {
    await getOrg(ctx.repos, orgId, tx);
    const c = await getCampaign(ctx.repos, tx, orgId, code);
    const added = await addNumbers(ctx.repos, tx, c, numbers, 'pool', now);
    await audit(
      tx,
      ctx,
      orgId,
      'campaign.numbers_added',
      'campaign',
      c.id,
      { numbers: added },
      now,
    );
    return view(ctx.repos, tx, c);
  });
  await refreshPoolStatistics(ctx);
  return result;
}

export async function showCampaign(ctx: Ctx, orgId: string, code: string) {
  await getOrg(ctx.repos, orgId);
  return view(ctx.repos, ctx.repos.db, await getCampaign(ctx.repos, ctx.repos.db, orgId, code));
}
