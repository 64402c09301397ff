import { errors } from '../../errors.js';
import type { AuditLog, UnitOfWork } from '../ports.js';
import type { BuyerRepository, RoutingRepository } from './ports.js';
import type { Plan, Target } from './types.js';
import { type Fallback, RING_TIMEOUT_DEFAULT } from './vocabulary.js';

export interface PlanRepos extends UnitOfWork {
  buyers: Pick<BuyerRepository, 'unknownBuyers'>;
  routing: Pick<RoutingRepository, 'getPlan' | 'putPlan'>;
  audit: AuditLog;
}

export interface PlanContext {
  repos: PlanRepos;
  now: Date;
  requestId: string | null;
  actor?: string;
}

export interface PlanInput {
  /** `weight` is filled by the validator's default (1); nested defaults do not show in the type. */
  targets: { buyer_id: string; priority: number; weight?: number }[];
  ring_timeout_seconds: number;
  fallback: Fallback;
}

export const planView = (code: string, p: Plan | null) => ({
  campaign_code: code,
  targets: (p?.targets ?? []).map((t) => ({
    buyer_id: t.buyerId,
    priority: t.priority,
    weight: t.weight,
  })),
  ring_timeout_seconds: p?.ringTimeoutSeconds ?? RING_TIMEOUT_DEFAULT,
  fallback: p?.fallback ?? 'forward_to',
  updated_at: p?.updatedAt.toISOString() ?? null,
});

/** Each buyer once, and each a buyer of the organization: else a 422 at its place. */
async function checkTargets(ctx: PlanContext, orgId: string, input: PlanInput): Promise<void> {
  const seen = new Set<string>();
  const problems: { loc: (string | number)[]; msg: string; input: unknown }[] = [];
  input.targets.forEach((t, i) => {
    if (seen.has(t.buyer_id)) {
      problems.push({
        loc: ['body', 'targets', i, 'buyer_id'],
        msg: 'names a buyer already in the targets',
        input: t.buyer_id,
      });
    }
    seen.add(t.buyer_id);
  });
  const unknown = new Set(await ctx.repos.buyers.unknownBuyers(ctx.repos.db, orgId, [...seen]));
  input.targets.forEach((t, i) => {
    if (unknown.has(t.buyer_id)) {
      problems.push({
        loc: ['body', 'targets', i, 'buyer_id'],
        msg: 'not a buyer of this organization',
        input: t.buyer_id,
      });
    }
  });
  if (problems.length > 0) throw errors.fields(problems);
}

/** Replaces the campaign's routing plan. */
export async function putPlan(
  ctx: PlanContext,
  orgId: string,
  campaign: { id: string; code: string },
  input: PlanInput,
) {
  await checkTargets(ctx, orgId, input);
  const targets: Target[] = input.targets.map((t) => ({
    buyerId: t.buyer_id,
    priority: t.priority,
    weight: t.weight ?? 1,
  }));
  const plan: Plan = {
    campaignId: campaign.id,
    targets,
    ringTimeoutSeconds: input.ring_timeout_seconds,
    fallback: input.fallback,
    updatedAt: ctx.now,
  };
  await ctx.repos.transaction(async (tx) => {
    await ctx.repos.routing.putPlan(tx, orgId, plan);
    await ctx.repos.audit.writeAudit(tx, {
      orgId,
      actor: ctx.actor ?? 'admin',
      action: 'routing.set',
      subjectType: 'campaign',
      subjectId: campaign.id,
      detail: { campaign_code: campaign.code, ...input },
      requestId: ctx.requestId,
      at: ctx.now,
    });
  });
  const stored = await ctx.repos.routing.getPlan(ctx.repos.db, orgId, campaign.id);
  return planView(campaign.code, stored);
}

export async function showPlan(
  ctx: PlanContext,
  orgId: string,
  campaign: { id: string; code: string },
) {
  return planView(campaign.code, await ctx.repos.routing.getPlan(ctx.repos.db, orgId, campaign.id));
}
