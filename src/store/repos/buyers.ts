import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { BuyerRepository } from '../../domain/routing/ports.js';
import type { Buyer, BuyerChange, Caps, Schedule, Usage } from '../../domain/routing/types.js';
import type { BuyerStatus } from '../../domain/routing/vocabulary.js';
import type { Executor } from '../db.js';
import { rowsOf } from '../rows.js';
import { buyers as B, buyerUsage as U } from '../schema/routing.js';

type Row = typeof B.$inferSelect;

const capsOf = (r: Row): Caps => {
  const caps: Caps = {};
  if (r.capHourly !== null) caps.hourly = r.capHourly;
  if (r.capDaily !== null) caps.daily = r.capDaily;
  if (r.capMonthly !== null) caps.monthly = r.capMonthly;
  if (r.capTotal !== null) caps.total = r.capTotal;
  if (r.capConcurrency !== null) caps.concurrency = r.capConcurrency;
  return caps;
};

const capColumns = (caps: Caps) => ({
  capHourly: caps.hourly ?? null,
  capDaily: caps.daily ?? null,
  capMonthly: caps.monthly ?? null,
  capTotal: caps.total ?? null,
  capConcurrency: caps.concurrency ?? null,
});

export const toBuyer = (row: Row): Buyer => ({
  id: row.id,
  orgId: row.orgId,
  name: row.name,
  forwardTo: row.forwardTo,
  timeZone: row.timeZone,
  schedule: row.schedule as Schedule | null,
  states: row.states,
  caps: capsOf(row),
  payout: {
    amount: row.payoutAmount,
    min_duration_seconds: row.payoutMinDurationSeconds,
    duplicate_window_days: row.payoutDuplicateWindowDays,
  },
  status: row.status as BuyerStatus,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

function columnsOf(c: BuyerChange) {
  return {
    ...(c.name !== undefined ? { name: c.name } : {}),
    ...(c.forwardTo !== undefined ? { forwardTo: c.forwardTo } : {}),
    ...(c.timeZone !== undefined ? { timeZone: c.timeZone } : {}),
    ...(c.schedule !== undefined ? { schedule: c.schedule } : {}),
    ...(c.states !== undefined ? { states: c.states } : {}),
    ...(c.caps !== undefined ? capColumns(c.caps) : {}),
    ...(c.payout !== undefined
      ? {
          payoutAmount: c.payout.amount,
          payoutMinDurationSeconds: c.payout.min_duration_seconds,
          payoutDuplicateWindowDays: c.payout.duplicate_window_days,
        }
      : {}),
    ...(c.status !== undefined ? { status: c.status } : {}),
  };
}

export async function insertBuyer(ex: Executor, b: Buyer): Promise<void> {
  await ex.insert(B).values({
    id: b.id,
    orgId: b.orgId,
    name: b.name,
    forwardTo: b.forwardTo,
    timeZone: b.timeZone,
    schedule: b.schedule,
    states: b.states,
    ...capColumns(b.caps),
    payoutAmount: b.payout.amount,
    payoutMinDurationSeconds: b.payout.min_duration_seconds,
    payoutDuplicateWindowDays: b.payout.duplicate_window_days,
    status: b.status,
    createdAt: b.createdAt,
    updatedAt: b.updatedAt,
  });
  await ex.insert(U).values({ buyerId: b.id, orgId: b.orgId });
}

export async function getBuyer(ex: Executor, orgId: string, id: string): Promise<Buyer | null> {
  const [r] = await ex
    .select()
    .from(B)
    .where(and(eq(B.orgId, orgId), eq(B.id, id)));
  return r ? toBuyer(r) : null;
}

export async function listBuyers(
  ex: Executor,
  orgId: string,
  limit: number,
  after?: string,
): Promise<Buyer[]> {
  const rows = await ex
    .select()
    .from(B)
    .where(and(eq(B.orgId, orgId), after === undefined ? undefined : gt(B.id, after)))
    .orderBy(asc(B.id))
    .limit(limit + 1);
  return rows.map(toBuyer);
}

export async function updateBuyer(
  ex: Executor,
  orgId: string,
  id: string,
  change: BuyerChange,
  at: Date,
): Promise<Buyer | null> {
  const [r] = await ex
    .update(B)
    .set({ ...columnsOf(change), updatedAt: at })
    .where(and(eq(B.orgId, orgId), eq(B.id, id)))
    .returning();
  if (r && change.timeZone !== undefined) await recountPeriods(ex, id, at);
  return r ? toBuyer(r) : null;
}

/**
 * A buyer's zone changed: its hour, day and month are now the new zone's, so each period's count
 * is counted again from the offers made in it that still count (live or answered). Otherwise a
 * count kept from the old zone's period would read as zero when the new period started later
 * (westward) and miss offers made before the old one started (eastward), and a cap would be
 * exceeded. The usage row is locked first, so the count sees every offer committed before it.
 * An offer live now keeps the periods it was counted in: should it end unanswered in the same
 * period, its place is not given back in that period's count (the safe side of the cap).
 */
async function recountPeriods(ex: Executor, buyerId: string, at: Date): Promise<void> {
  await ex.execute(sql`select 1 from ${U} where buyer_id = ${buyerId} for update`);
  const counted = (start: ReturnType<typeof sql>) =>
    sql`(select count(*)::integer from call_offers o
          where o.buyer_id = u.buyer_id and o.offered_at >= ${start}
            and (o.outcome is null or o.outcome = 'answered'))`;
  await ex.execute(sql`update ${U} u set
      hour_start = p.h, hour_count = ${counted(sql`p.h`)},
      day_start = p.d, day_count = ${counted(sql`p.d`)},
      month_start = p.m, month_count = ${counted(sql`p.m`)}
    from (select date_trunc('hour', ${at.toISOString()}::timestamptz, b.time_zone) as h,
                 date_trunc('day', ${at.toISOString()}::timestamptz, b.time_zone) as d,
                 date_trunc('month', ${at.toISOString()}::timestamptz, b.time_zone) as m
            from ${B} b where b.id = ${buyerId}) p
   where u.buyer_id = ${buyerId}`);
}

/**
 * A period's count is the stored one while the stored start is the buyer's current period (or
 * later: a concurrent request whose clock read a little ahead), else zero.
 */
export async function usageOf(
  ex: Executor,
  orgId: string,
  ids: readonly string[],
  now: Date,
): Promise<Map<string, Usage>> {
  if (ids.length === 0) return new Map();
  const at = now.toISOString();
  const rows = await rowsOf<{
    buyer_id: string;
    hourly: number;
    daily: number;
    monthly: number;
    total: number;
    concurrency: number;
  }>(
    ex,
    sql`select u.buyer_id,
          case when u.hour_start >= date_trunc('hour', ${at}::timestamptz, b.time_zone)
               then u.hour_count else 0 end as hourly,
          case when u.day_start >= date_trunc('day', ${at}::timestamptz, b.time_zone)
               then u.day_count else 0 end as daily,
          case when u.month_start >= date_trunc('month', ${at}::timestamptz, b.time_zone)
               then u.month_count else 0 end as monthly,
          u.total_count as total, u.live_count as concurrency
        from ${U} u join ${B} b on b.id = u.buyer_id
       where b.org_id = ${orgId} and u.buyer_id = any(${`{${ids.join(',')}}`}::text[])`,
  );
  return new Map(
    rows.map((r) => [
      r.buyer_id,
      {
        hourly: Number(r.hourly),
        daily: Number(r.daily),
        monthly: Number(r.monthly),
        total: Number(r.total),
        concurrency: Number(r.concurrency),
      },
    ]),
  );
}

export async function unknownBuyers(
  ex: Executor,
  orgId: string,
  ids: readonly string[],
): Promise<string[]> {
  if (ids.length === 0) return [];
  const found = await ex
    .select({ id: B.id })
    .from(B)
    .where(and(eq(B.orgId, orgId), inArray(B.id, [...ids])));
  const known = new Set(found.map((f) => f.id));
  return ids.filter((id) => !known.has(id));
}

/** `repos.buyers`. */
export function createBuyerRepository(): BuyerRepository {
  return { insertBuyer, getBuyer, listBuyers, updateBuyer, usageOf, unknownBuyers };
}
