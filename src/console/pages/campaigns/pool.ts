import { poolHealthView } from '../../../domain/dni/pool-health.js';
import type { PoolObservation } from '../../../domain/dni/ports.js';
import { AppError } from '../../../errors.js';
import { type OrgContext, reportRange } from '../../context.js';
import type { ConsoleRouter } from '../../router.js';

/** The pool answer's accuracy target (the admin API's default). */
const TARGET = 0.99;
/** The longest window the pool model reads (its cost grows with the hours). */
export const POOL_MAX_DAYS = 90;

/** What the pool model is given for a range in which the campaign had no sessions. */
function emptyObservation(numbers: number, hasOverflow: boolean): PoolObservation {
  return {
    numbers,
    hasOverflow,
    heldNow: 0,
    hours: [],
    sessions: { allocated: 0, sticky: 0, shared: 0, overflow: 0 },
    meanHoldSeconds: null,
    calls: {
      total: 0,
      holder: 0,
      grace: 0,
      repeatCaller: 0,
      campaignOnly: 0,
      onSharedNumber: 0,
    },
    graceLateness: [],
    liveCallDelaySeconds: null,
  };
}

/** A campaign, its numbers, its calls in the page's range and its pool's health. */
export async function readCampaign(router: ConsoleRouter, ctx: OrgContext, code: string) {
  const { config, pool: poolReads } = router.deps.queries;
  const c = await config.findCampaign(ctx.org.id, code);
  if (!c) throw new AppError('Not Found');
  // The page's range, as far as it has happened, at most POOL_MAX_DAYS ending with its last day.
  const end = new Date(Math.min(ctx.range.until.getTime(), ctx.now.getTime()));
  const clamped = ctx.range.days > POOL_MAX_DAYS;
  const since = clamped
    ? new Date(ctx.range.until.getTime() - POOL_MAX_DAYS * 86_400_000)
    : ctx.range.since;
  const days = Math.min(ctx.range.days, POOL_MAX_DAYS);
  const [observed, numbers, traffic] = await Promise.all([
    since < end ? poolReads.observePool(c.id, since, end) : Promise.resolve(null),
    config.listNumbers(c.id, { limit: 2000, now: ctx.now }),
    router.reports.trafficReport(ctx.org.id, {
      kind: 'traffic',
      ...reportRange(ctx),
      bucket: 'none',
      groupBy: [],
      campaignId: c.id,
    }),
  ]);
  const empty = emptyObservation(
    numbers.filter((n) => n.number.role === 'pool').length,
    numbers.some((n) => n.number.role === 'overflow'),
  );
  const pool = poolHealthView(c.code, observed ?? empty, {
    days,
    target: TARGET,
    since,
    now: end,
  });
  const heldNow = numbers.filter((n) => n.sessionId && n.number.role === 'pool').length;
  return { c, numbers, totals: traffic.totals.metrics, pool, clamped, heldNow };
}

export type CampaignData = Awaited<ReturnType<typeof readCampaign>>;
