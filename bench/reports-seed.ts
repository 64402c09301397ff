import { sql } from 'drizzle-orm';
import type { Store } from '../src/store/db.js';

const DAY = 86_400_000;
const START = Date.parse('2026-06-01T00:00:00Z');
/** Numbers of the DNI throughput campaign: more than a phase opens in 5 minutes of request time. */
const BD_POOL = 100_000;

export interface SeedCounts {
  sessions: number;
  calls: number;
  reports: number;
  touches: number;
}

/**
 * One organization's 90 days, written by set-based SQL in one transaction with
 * triggers off (session_replication_role = replica), then its rollups built
 * by report_rebuild, as a bulk load would. Five campaigns of 50 numbers, six
 * sources, twenty landing paths; 60 % as many callers as calls.
 */
export async function seedReports(store: Store, n: SeedCounts) {
  const org = `org_bench_${Math.random().toString(16).slice(2, 10)}`;
  const span = 90 * 86_400;
  const t0 = Date.now();
  const start = new Date(START).toISOString();
  const num = (c: string, i: string) => `'+1555' || lpad(((${c}) * 100000 + (${i}))::text, 7, '0')`;
  await store.db.transaction(async (tx) => {
    const run = (text: string) => tx.execute(sql.raw(text));
    await run(`insert into orgs (id, name, tracking_enabled, time_zone)
               values ('${org}', 'bench', true, 'America/New_York')`);
    await run(`insert into campaigns (id, org_id, code, name, session_ttl_seconds, pool_size)
               select '${org}_c' || i, '${org}', 'b' || i, 'Bench ' || i, 1800, 50 from generate_series(0, 4) i`);
    // The DNI throughput rows: a campaign with a pool that never runs out within a phase.
    await run(`insert into campaigns (id, org_id, code, name, session_ttl_seconds, pool_size)
               values ('${org}_bd', '${org}', 'bd', 'DNI bench', 300, ${BD_POOL})`);
    // Campaign triggers made the clock sequences; the rest goes in without triggers.
    await run('set local session_replication_role = replica');
    await run(`insert into tracking_numbers (e164, org_id, campaign_id, role, slot)
               select ${num('c', 'k')}, '${org}', '${org}_c' || c, 'pool', k
                 from generate_series(0, 4) c, generate_series(0, 49) k`);
    await run(`insert into dni_sessions (id, org_id, campaign_id, visitor_id, tracking_number, kind, ambiguous,
                 created_at, expires_at, last_seen_at, hits, gclid, fbclid, msclkid, landing_url,
                 utm_source, utm_medium, utm_campaign)
               select 'ds_' || lpad(to_hex(i), 24, '0'), '${org}', '${org}_c' || (i % 5), 'v' || i,
                 ${num('i % 5', '(i / 5) % 50')},
                 case when i % 50 = 0 then 'shared' else 'allocated' end, i % 50 = 0,
                 t, t + interval '30 minutes', t, 1 + (i % 7 = 0)::int,
                 case when i % 6 = 1 then 'g' || i end, case when i % 6 = 2 then 'f' || i end,
                 case when i % 6 = 5 then 'm' || i end,
                 'https://ex.org/p' || (i % 20) || '?x=1',
                 case when i % 6 in (3, 4) then (array['newsletter', 'bing', 'partner'])[1 + i % 3] end,
                 case when i % 6 in (3, 4) then 'email' end,
                 case when i % 6 = 3 then 'spring' || (i % 4) end
                 from (select i, '${start}'::timestamptz + (i * (${span}::float8 / ${n.sessions})) * interval '1 second' as t
                         from generate_series(0, ${n.sessions - 1}) i) x`);
    // Every step-th session, shifted by j % step, so calls fall on every campaign and source.
    const step = Math.max(1, Math.floor(n.sessions / n.calls));
    await run(`insert into calls (id, org_id, campaign_id, dni_session_id, tracking_number, from_number, started_at,
                 attribution, ambiguous, status, duration_seconds, session_created_at, session_expires_at)
               select 'call_' || lpad(to_hex(j), 24, '0'), '${org}', s.campaign_id,
                 case when j % 5 <> 0 then s.id end, s.tracking_number,
                 '+1212' || lpad(((j::bigint * 7919) % ${Math.max(1, Math.floor(n.calls * 0.6))})::text, 7, '0'),
                 s.created_at + interval '5 minutes',
                 case when j % 5 <> 0 then 'session' else 'campaign' end, s.ambiguous,
                 case when j % 3 = 0 then 'completed' when j % 3 = 1 then 'no-answer' end,
                 case when j % 3 = 0 then 20 + j % 700 end,
                 case when j % 5 <> 0 then s.created_at end, case when j % 5 <> 0 then s.expires_at end
                 from generate_series(0, ${n.calls - 1}) j
                 join dni_sessions s on s.id = 'ds_' || lpad(to_hex(j * ${step} + j % ${step}), 24, '0')`);
    const every = Math.max(1, Math.floor(n.calls / n.reports));
    await run(`insert into buyer_report_events (id, org_id, campaign_id, call_id, report_id, disposition, key_id, at)
               select 'evt_' || substr(c.id, 6), '${org}', c.campaign_id, c.id, 'r' || c.id,
                 case when ('x' || right(c.id, 6))::bit(24)::int % 3 = 0 then 'rejected' else 'success' end,
                 'key_bench', c.started_at + interval '2 hours'
                 from calls c where c.org_id = '${org}' and ('x' || right(c.id, 6))::bit(24)::int % ${every} = 1`);
    await run(`update calls c set disposition = e.disposition, disposition_event_id = e.id, disposition_at = e.at
                 from buyer_report_events e where e.call_id = c.id and e.org_id = '${org}'`);
    await run(`insert into outbound_touches (id, org_id, campaign_id, to_e164, channel, status, placed,
                 consent_basis, reasons, checks, decided_at, actor, dispatch_status)
               select 'tch_' || lpad(to_hex(k), 24, '0'), '${org}', '${org}_c' || (k % 5),
                 '+1212' || lpad((k % 200000)::text, 7, '0'), (array['call', 'sms', 'voicemail'])[1 + k % 3],
                 case when k % 4 = 0 then 'blocked' else 'queued' end, k % 4 <> 0, 'pewc',
                 case when k % 4 = 0 then '[{"code":"quiet_hours","message":"-"}]'::jsonb else '[]'::jsonb end,
                 jsonb_build_object('consent', jsonb_build_object('purpose',
                     case when k % 10 = 0 then 'informational' else 'marketing' end),
                   'quiet_hours', jsonb_build_object('state', (array['NY', 'CA', 'TX', 'FL', null])[1 + k % 5])),
                 '${start}'::timestamptz + (k * (${span}::float8 / ${n.touches})) * interval '1 second', 'bench',
                 case when k % 4 <> 0 then (array['delivered', 'delivered', 'failed', 'pending'])[1 + k % 4] end
                 from generate_series(0, ${n.touches - 1}) k`);
    await run(`insert into tracking_numbers (e164, org_id, campaign_id, role, slot)
               select '+1556' || lpad(k::text, 7, '0'), '${org}', '${org}_bd', 'pool', k
                 from generate_series(0, ${BD_POOL - 1}) k`);
  });
  const seedMs = Date.now() - t0;
  const t1 = Date.now();
  await store.query('select report_rebuild($1)', [org]);
  await store.query('select report_compact(2147483647)', []);
  // As the retention round does after a fold: the folded deltas' space is reclaimed.
  await store.query('vacuum analyze', []);
  return { orgId: org, end: START + 90 * DAY, seedMs, rebuildMs: Date.now() - t1 };
}

/** The organization a kept database was seeded with (BENCH_REPORT_DB). */
export async function seededBefore(store: Store) {
  const [r] = await store.query<{ id: string }>(
    "select id from orgs where id like 'org_bench_%' limit 1",
    [],
  );
  if (!r) throw new Error('BENCH_REPORT_DB: no seeded organization in that database');
  return { orgId: r.id, end: START + 90 * DAY, seedMs: 0, rebuildMs: 0 };
}
