import { sql } from 'drizzle-orm';
import type { PoolObservation, PoolSizingRepository } from '../../domain/dni/ports.js';
import type { Executor } from '../db.js';
import { positional, rowsOf } from '../rows.js';

export type { PoolObservation };

type Num = string | number;

// Held numbers per hour. Each number's hold intervals are merged first (a shared
// number's sessions overlap; range_agg joins closed ranges that overlap or touch),
// then a sweep over starts (+1) and ends (-1) gives the number of held numbers at
// every instant; hour marks (0) carry the level into hours without any event.
// Releases sort before holds at the same instant. Live sessions run to their
// current expiry, so a number taken this instant counts.
//
// The sessions are those held at some instant of [since, now]: created by now
// and expiring after since. They are read from dni_sessions_window_idx alone
// (migration 0028) from one day before the window; a session created earlier
// and still held at since lasted over a day, and those few come from
// dni_sessions_long_idx, whose predicate this text repeats. A session never ends
// before it starts (dni_open_sessions sets its expiry to its clock plus the TTL);
// if one did, it would count as held for an instant.
const PEAKS_SQL = `
with s as (
  select tracking_number, kind, created_at, expires_at
    from dni_sessions
   where campaign_id = $1 and created_at >= $2::timestamptz - interval '1 day'
     and created_at <= $3::timestamptz
  union all
  select tracking_number, kind, created_at, expires_at
    from dni_sessions
   where campaign_id = $1 and expires_at - created_at > interval '1 day'
     and created_at < $2::timestamptz - interval '1 day' and expires_at > $2::timestamptz
), iv as (
  select unnest(range_agg(tstzrange(greatest(created_at, $2::timestamptz),
                                    greatest(created_at, $2::timestamptz, expires_at), '[]'))) as r
    from s
   where kind <> 'overflow' and expires_at > $2::timestamptz
   group by tracking_number
), ev as (
  select lower(r) as t, 1 as d from iv
  union all select upper(r), -1 from iv
  union all select generate_series(date_trunc('hour', $2::timestamptz), $3::timestamptz, '1 hour'), 0
), run as (
  select t, d, sum(d) over (order by t, d rows unbounded preceding) as lvl from ev
)
select date_trunc('hour', t) as hour, max(lvl) as peak
  from run
 where date_trunc('hour', t) >= date_trunc('hour', $2::timestamptz)
   and date_trunc('hour', t) <= $3::timestamptz
 group by 1
 order by 1`;

// New sessions per hour of the window, and the window's totals on every row. The
// holds are summed as intervals (exact, and cheaper than a numeric per row), so the
// mean divides the same numeric sum by the same count as avg() over each session's
// seconds did.
const ARRIVALS_SQL = `
select hour, arrivals,
       sum(allocated) over () as allocated, sum(sticky) over () as sticky,
       sum(shared) over () as shared, sum(overflow) over () as overflow,
       extract(epoch from sum(hold) over ()) / sum(holds) over () as mean_hold
  from (
  select date_trunc('hour', created_at) as hour, count(*) as arrivals,
         count(*) filter (where kind = 'allocated') as allocated,
         sum(hits - 1) as sticky,
         count(*) filter (where kind = 'shared') as shared,
         count(*) filter (where kind = 'overflow') as overflow,
         sum(expires_at - created_at) filter (where kind <> 'overflow') as hold,
         count(*) filter (where kind <> 'overflow') as holds
    from dni_sessions
   where campaign_id = $1 and created_at >= $2::timestamptz and created_at <= $3::timestamptz
   group by 1) h`;

// By the organization too, so calls_org_campaign_idx serves the window (a call's
// organization is its campaign's: calls_campaign_fk). The attributing session's
// times were kept on the call when it was recorded (migration 0029): no lookup of
// each call's session (66,000 random reads of dni_sessions in a 30-day window of
// the reporting bench, 1.5 s).
const CALLS_SQL = `
select count(*) as total,
       count(*) filter (where attribution = 'session') as holder,
       count(*) filter (where attribution = 'recent_holder') as grace,
       count(*) filter (where attribution = 'repeat_caller') as repeat_caller,
       count(*) filter (where attribution = 'campaign') as campaign_only,
       count(*) filter (where ambiguous) as on_shared,
       string_agg(extract(epoch from started_at - session_expires_at)::text, ',')
         filter (where attribution = 'recent_holder') as grace_lateness,
       avg(extract(epoch from started_at - session_created_at))
         filter (where attribution = 'session') as live_delay
  from calls
 where org_id = (select org_id from campaigns where id = $1) and campaign_id = $1
   and started_at >= $2::timestamptz and started_at <= $3::timestamptz`;

// Each role through its partial index, not a scan of every campaign's numbers.
const NUMBERS_SQL = `
select p.numbers, p.held,
       (select count(*) from tracking_numbers where campaign_id = $1 and role = 'overflow') as overflow
  from (select count(*) as numbers, count(*) filter (where held_until > $2::timestamptz) as held
          from tracking_numbers where campaign_id = $1 and role = 'pool') p`;

/**
 * Reads a campaign's pool, sessions and calls in [since, now]. The statements are
 * independent: on the server's pool they run at once, each on its own connection.
 */
export async function observePool(
  ex: Executor,
  campaignId: string,
  since: Date,
  now: Date,
): Promise<PoolObservation> {
  const win = [campaignId, since, now];
  const [[nums], peaks, arrivals, [c]] = await Promise.all([
    rowsOf<{ numbers: Num; overflow: Num; held: Num }>(
      ex,
      positional(NUMBERS_SQL, [campaignId, now]),
    ),
    rowsOf<{ hour: Date | string; peak: Num }>(ex, positional(PEAKS_SQL, win)),
    rowsOf<{ hour: Date | string; arrivals: Num } & Record<string, Num | null>>(
      ex,
      positional(ARRIVALS_SQL, win),
    ),
    // The lateness list travels as text: postgres.js leaves numeric[] unparsed.
    rowsOf<Record<string, Num | null>>(ex, positional(CALLS_SQL, win)),
  ]);
  const n = (v: unknown) => Number(v ?? 0);
  const byHour = new Map(arrivals.map((r) => [new Date(r.hour).getTime(), n(r.arrivals)]));
  const s = arrivals[0];
  return {
    numbers: n(nums?.numbers),
    hasOverflow: n(nums?.overflow) > 0,
    heldNow: n(nums?.held),
    hours: peaks.map((r) => {
      const hour = new Date(r.hour);
      return { hour, arrivals: byHour.get(hour.getTime()) ?? 0, peakHeld: n(r.peak) };
    }),
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
