import { errors } from '../../errors.js';
import { newId } from '../ids.js';
import type { BuyerRepos } from './ports.js';
import { scheduleProblems } from './schedule.js';
import type { Buyer, BuyerChange, Caps, Payout, Schedule, Usage } from './types.js';
import type { BuyerStatus } from './vocabulary.js';

export interface BuyerContext {
  repos: BuyerRepos;
  now: Date;
  requestId: string | null;
  /** Who the audit trail names: `admin` unless a console user acts. */
  actor?: string;
}

/** A buyer as the admin API takes it (contract §11). */
export interface BuyerInput {
  name?: string;
  forward_to?: string;
  time_zone?: string;
  schedule?: Schedule | null;
  states?: string[] | null;
  caps?: { [K in keyof Caps]?: number | null } | null;
  payout?: { amount: string; min_duration_seconds?: number; duplicate_window_days?: number } | null;
  status?: BuyerStatus;
}

const NO_USAGE: Usage = { hourly: 0, daily: 0, monthly: 0, total: 0, concurrency: 0 };

export const buyerView = (b: Buyer, usage: Usage = NO_USAGE) => ({
  buyer_id: b.id,
  name: b.name,
  forward_to: b.forwardTo,
  time_zone: b.timeZone,
  schedule: b.schedule,
  states: b.states,
  caps: {
    hourly: b.caps.hourly ?? null,
    daily: b.caps.daily ?? null,
    monthly: b.caps.monthly ?? null,
    total: b.caps.total ?? null,
    concurrency: b.caps.concurrency ?? null,
  },
  payout: b.payout,
  status: b.status,
  usage,
  created_at: b.createdAt.toISOString(),
  updated_at: b.updatedAt.toISOString(),
});

/** The schedule's spans end after they start; the x-checks of the schema say the rest. */
function checkSchedule(schedule: Schedule | null | undefined): void {
  if (!schedule) return;
  const problems = scheduleProblems(schedule);
  if (problems.length > 0) {
    throw errors.fields(
      problems.map((p) => ({
        loc: ['body', 'schedule', ...p.loc],
        msg: p.msg,
        input:
          p.loc.length === 2 ? schedule[p.loc[0] as keyof Schedule]?.[p.loc[1] as number] : null,
      })),
    );
  }
}

const capsOf = (caps: BuyerInput['caps']): Caps => {
  const out: Caps = {};
  for (const [name, v] of Object.entries(caps ?? {})) {
    if (typeof v === 'number') out[name as keyof Caps] = v;
  }
  return out;
};

const payoutOf = (p: BuyerInput['payout']): Payout => ({
  amount: p?.amount ?? '0.00',
  min_duration_seconds: p?.min_duration_seconds ?? 0,
  duplicate_window_days: p?.duplicate_window_days ?? 0,
});

const statesOf = (s: string[] | null | undefined) => (s ? [...new Set(s)].sort() : null);

function changeOf(input: BuyerInput): BuyerChange {
  return {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.forward_to !== undefined ? { forwardTo: input.forward_to } : {}),
    ...(input.time_zone !== undefined ? { timeZone: input.time_zone } : {}),
    ...(input.schedule !== undefined ? { schedule: input.schedule } : {}),
    ...(input.states !== undefined ? { states: statesOf(input.states) } : {}),
    ...(input.caps !== undefined ? { caps: capsOf(input.caps) } : {}),
    ...(input.payout !== undefined ? { payout: payoutOf(input.payout) } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
  };
}

async function audit(
  ctx: BuyerContext,
  tx: Parameters<BuyerRepos['audit']['writeAudit']>[0],
  orgId: string,
  action: string,
  buyerId: string,
  detail: Record<string, unknown>,
) {
  await ctx.repos.audit.writeAudit(tx, {
    orgId,
    actor: ctx.actor ?? 'admin',
    action,
    subjectType: 'buyer',
    subjectId: buyerId,
    detail,
    requestId: ctx.requestId,
    at: ctx.now,
  });
}

/** A new buyer; its zone is the organization's unless given. */
export async function createBuyer(
  ctx: BuyerContext,
  org: { id: string; timeZone: string },
  input: BuyerInput & { name: string; forward_to: string },
) {
  checkSchedule(input.schedule);
  const buyer: Buyer = {
    id: newId('buy', ctx.now.getTime()),
    orgId: org.id,
    name: input.name,
    forwardTo: input.forward_to,
    timeZone: input.time_zone ?? org.timeZone,
    schedule: input.schedule ?? null,
    states: statesOf(input.states),
    caps: capsOf(input.caps),
    payout: payoutOf(input.payout),
    status: input.status ?? 'active',
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  await ctx.repos.transaction(async (tx) => {
    await ctx.repos.buyers.insertBuyer(tx, buyer);
    await audit(ctx, tx, org.id, 'buyer.created', buyer.id, { ...input });
  });
  return buyerView(buyer);
}

/** The buyer with what its caps count now; another organization's buyer is a 404. */
export async function showBuyer(ctx: BuyerContext, orgId: string, buyerId: string) {
  const b = await ctx.repos.buyers.getBuyer(ctx.repos.db, orgId, buyerId);
  if (!b) throw errors.buyerNotFound();
  const usage = await ctx.repos.buyers.usageOf(ctx.repos.db, orgId, [b.id], ctx.now);
  return buyerView(b, usage.get(b.id));
}

export async function listBuyersWithUsage(
  ctx: BuyerContext,
  orgId: string,
  limit: number,
  after: string | undefined,
) {
  const rows = await ctx.repos.buyers.listBuyers(ctx.repos.db, orgId, limit, after);
  const usage = await ctx.repos.buyers.usageOf(
    ctx.repos.db,
    orgId,
    rows.map((b) => b.id),
    ctx.now,
  );
  return rows.map((b) => ({ buyer: b, usage: usage.get(b.id) ?? NO_USAGE }));
}

/** Changes the fields given; `schedule`, `states`, `caps` and `payout` are replaced whole. */
export async function updateBuyer(
  ctx: BuyerContext,
  orgId: string,
  buyerId: string,
  input: BuyerInput,
) {
  checkSchedule(input.schedule);
  const b = await ctx.repos.transaction(async (tx) => {
    const updated = await ctx.repos.buyers.updateBuyer(
      tx,
      orgId,
      buyerId,
      changeOf(input),
      ctx.now,
    );
    if (!updated) throw errors.buyerNotFound();
    await audit(ctx, tx, orgId, 'buyer.updated', buyerId, { ...input });
    return updated;
  });
  const usage = await ctx.repos.buyers.usageOf(ctx.repos.db, orgId, [b.id], ctx.now);
  return buyerView(b, usage.get(b.id));
}
