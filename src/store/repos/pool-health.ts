import { sql } from 'drizzle-orm';
import type { PoolObservation, PoolSizingRepository } from '../../domain/dni/ports.js';
import type { Executor } from '../db.js';
import { positional, rowsOf } from '../rows.js';

export type { PoolObservation };

type Num = string | number;

// Per-number hold intervals are merged first (a shared number's sessions
// overlap), then a sweep over starts (+1) and ends (-1) gives the number of
// held numbers at every instant; hour marks (0) carry the level into hours
// without any event. Releases sort before holds at the same instant. Live
// sessions run to their current expiry, so a number taken this instant counts.
const HOURLY_SQL = `
with s as (
  select tracking_number as n, greatest(created_at, $2::timestamptz) as a,
         expires_at as b
    from dni_sessions
   where campaign_id = $1 and kind <> 'overflow'
     and created_at <= $3::timestamptz and expires_at > $2::timestamptz
), o as (
  select n, a, b, max(b) over (partition by n order by a, b
                               rows between unbounded preceding and 1 preceding) as prev_end
    from s
), g as (
  select n, a, b, count(*) filter (where prev_end is null or prev_end < a)
                  over (partition by n order by a, b rows unbounded preceding) as grp
    from o
), iv as (
  select min(a) as a, max(b) as b from g group by n, grp
), ev as (
  select a as t, 1 as d from iv
  union all select b, -1 from iv
  union all select generate_series(date_trunc('hour', $2::timestamptz), $3::timestamptz, '1 hour'), 0
), run as (
  select t, d, sum(d) over (order by t, d rows unbounded preceding) as lvl from ev
), peaks as (
  select date_trunc('hour', t) as hour, max(lvl) as peak from run group by 1
), arr as (
  select date_trunc('hour', created_at) as hour, count(*) as arrivals
    from dni_sessions
   where campaign_id = $1 and created_at >= $2::timestamptz and created_at <= $3::timestamptz
   group by 1
)
select p.hour, coalesce(a.arrivals, 0) as arrivals, p.peak
  from peaks p left join arr a on a.hour = p.hour
 where p.hour >= date_trunc('hour', $2::timestamptz) and p.hour <= $3::timestamptz
 order by p.hour`;

const SESSIONS_SQL = `
select count(*) filter (where kind = 'allocated') as allocated,
       coalesce(sum(hits - 1), 0) as sticky,
       count(*) filter (where kind = 'shared') as shared,
       count(*) filter (where kind = 'overflow') as overflow,
       avg(extract(epoch from expires_at - created_at))
         filter (where kind <> 'overflow') as mean_hold
  from dni_sessions
 where campaign_id = $1 and created_at >= $2::timestamptz and created_at <= $3::timestamptz`;

const CALLS_SQL = `
select count(*) as total,
       count(*) filter (where c.attribution = 'session') as holder,
       count(*) filter (where c.attribution = 'recent_holder') as grace,
       count(*) filter (where c.attribution = 'repeat_caller') as repeat_caller,
       count(*) filter (where c.attribution = 'campaign') as campaign_only,
       count(*) filter (where c.ambiguous) as on_shared,
       string_agg(extract(epoch from c.started_at - s.expires_at)::text, ',')
         filter (where c.attribution = 'recent_holder') as grace_lateness,
       avg(extract(epoch from c.started_at - s.created_at))
         filter (where c.attribution = 'session') as live_delay
  from calls c left join dni_sessions s on s.id = c.dni_session_id
 where c.campaign_id = $1 and c.started_at >= $2::timestamptz and c.started_at <= $3::timestamptz`;

const NUMBERS_SQL = `
select count(*) filter (where role = 'pool') as numbers,
       count(*) filter (where role = 'overflow') as overflow,
       count(*) filter (where role = 'pool' and held_until > $2::timestamptz) as held
  from tracking_numbers where campaign_id = $1`;

/** Reads a campaign's pool, sessions and calls in [since, now]. */
export async function observePool(
  ex: Executor,
  campaignId: string,
  since: Date,
  now: Date,
): Promise<PoolObservation> {
  const win = [campaignId, since, now];
  const [nums] = await rowsOf<{ numbers: Num; overflow: Num; held: Num }>(
    ex,
    positional(NUMBERS_SQL, [campaignId, now]),
  );
  const hours = await rowsOf<{ hour: Date | string; arrivals: Num; peak: Num }>(
    ex,
    positional(HOURLY_SQL, win),
  );
  const [s] = await rowsOf<Record<string, Num | null>>(ex, positional(SESSIONS_SQL, win));
  // The lateness list travels as text: postgres.js leaves numeric[] unparsed.
  const [c] = await rowsOf<Record<string, Num | null>>(ex, positional(CALLS_SQL, win));
  const n = (v: unknown) => Number(v ?? 0);
  return {
    numbers: n(nums?.numbers),
    hasOverflow: n(nums?.overflow) > 0,
    heldNow: n(nums?.held),
    hours: hours.map((r) => ({
      hour: new Date(r.hour),
      arrivals: n(r.arrivals),
      peakHeld: n(r.peak),
    })),
    sessions: {
      allocated: n(s?.allocated),
      sticky: n(s?.sticky),
      shared: n(s?.shared),
      overflow: n(s?.overflow),
    },
    meanHoldSeconds: s?.mean_hold == null ? null : Number(s.mean_hold),
    calls: {
      total: n(c?.total),
      holder: n(c?.holder),
      grace: n(c?.grace),
      repeatCaller: n(c?.repeat_caller),
      campaignOnly: n(c?.campaign_only),
      onSharedNumber: n(c?.on_shared),
    },
    graceLateness: c?.grace_lateness ? String(c.grace_lateness).split(',').map(Number) : [],
    liveCallDelaySeconds: c?.live_delay == null ? null : Number(c.live_delay),
  };
}

/** Every campaign with a pool, for the sizing gauges. */
export function campaignsWithPool(
  ex: Executor,
): Promise<{ id: string; org_id: string; code: string }[]> {
  return rowsOf<{ id: string; org_id: string; code: string }>(
    ex,
    sql`select c.id, c.org_id, c.code from campaigns c
      where exists (select 1 from tracking_numbers n where n.campaign_id = c.id and n.role = 'pool')
      order by c.id`,
  );
}

/** `repos.poolSizing`. */
export function createPoolSizingRepository(): PoolSizingRepository {
  return { campaignsWithPool, observePool };
}
