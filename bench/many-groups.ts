/**
 * npm run bench -- many-groups: a traffic report over visitor keys with no bound of their own
 * (docs/reporting.md, "Many groups"). One organization gets BENCH_MANY_GROUPS (default
 * 1,000,000) sessions over 30 days, each on its own landing path, and a call for every 100th;
 * then the report by landing path is asked as JSON (bucket none) and as CSV (bucket day) while
 * an HTTP `/healthz` in the same process is probed every 20 ms. The row holds when the answer
 * stays within its bound (MAX_REPORT_ROWS, the rest folded), the process grows by less than
 * 300 MB over idle, and the probe's p99 stays under 50 ms.
 */
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { MAX_REPORT_ROWS } from '../src/domain/reports/request.js';
import type { TrafficQuery } from '../src/domain/reports/types.js';
import { reportCsv, reportJson } from '../src/domain/reports/view.js';
import { openStore, type Store } from '../src/store/db.js';
import { trafficReport } from '../src/store/queries/reports.js';

const DAY = 86_400_000;
const START = Date.parse('2026-06-01T00:00:00Z');
const paths = Number(process.env.BENCH_MANY_GROUPS ?? 1_000_000);
const pgUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};

async function seed(store: Store) {
  const org = `org_groups_${Math.random().toString(16).slice(2, 10)}`;
  const start = new Date(START).toISOString();
  const span = 30 * 86_400;
  await store.query('begin', []);
  const run = (text: string) => store.query(text, []);
  await run(`insert into orgs (id, name, tracking_enabled, time_zone)
             values ('${org}', 'bench', true, 'America/New_York')`);
  await run(`insert into campaigns (id, org_id, code, name, session_ttl_seconds, pool_size)
             values ('${org}_c', '${org}', 'b0', 'Bench', 1800, 50)`);
  await run('set local session_replication_role = replica');
  await run(`insert into tracking_numbers (e164, org_id, campaign_id, role, slot)
             select '+1555' || lpad(k::text, 7, '0'), '${org}', '${org}_c', 'pool', k
               from generate_series(0, 49) k`);
  await run(`insert into dni_sessions (id, org_id, campaign_id, visitor_id, tracking_number, kind, ambiguous,
               created_at, expires_at, last_seen_at, hits, landing_url, utm_source)
             select 'ds_' || lpad(to_hex(i), 24, '0'), '${org}', '${org}_c', 'v' || i,
               '+1555' || lpad((i % 50)::text, 7, '0'), 'allocated', false,
               t, t + interval '30 minutes', t, 1, 'https://ex.org/p/' || i || '?x=1', 'google'
               from (select i, '${start}'::timestamptz + (i * (${span}::float8 / ${paths})) * interval '1 second' as t
                       from generate_series(0, ${paths - 1}) i) x`);
  await run(`insert into calls (id, org_id, campaign_id, dni_session_id, tracking_number, from_number, started_at,
               attribution, ambiguous, status, duration_seconds, session_created_at, session_expires_at)
             select 'call_' || lpad(to_hex(j), 24, '0'), '${org}', s.campaign_id, s.id, s.tracking_number,
               '+1212' || lpad((j % 1000)::text, 7, '0'), s.created_at + interval '5 minutes',
               'session', false, 'completed', 60, s.created_at, s.expires_at
               from generate_series(0, ${Math.floor(paths / 100) - 1}) j
               join dni_sessions s on s.id = 'ds_' || lpad(to_hex(j * 100), 24, '0')`);
  await store.query('commit', []);
  await store.query('select report_rebuild($1)', [org]);
  await store.query('select report_compact(2147483647)', []);
  await store.query('vacuum analyze', []);
  return org;
}

/** `/healthz` every 20 ms over HTTP, on this process's event loop, while `work` runs. */
async function probed<T>(port: number, work: () => Promise<T>) {
  const lat: number[] = [];
  let peakRss = process.memoryUsage().rss;
  let busy = false;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
    if (busy) return;
    busy = true;
    const t0 = performance.now();
    get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (res) => {
      res.resume();
      res.on('end', () => {
        lat.push(performance.now() - t0);
        busy = false;
      });
    });
  }, 20);
  const t0 = performance.now();
  try {
    const out = await work();
    return { out, ms: performance.now() - t0, lat, peakRss };
  } finally {
    clearInterval(timer);
  }
}

export async function benchManyGroups() {
  const name = `tracking_bench_groups_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const store = await openStore({ databaseUrl: url.toString(), poolSize: 8 });
  const health = createServer((_, res) => res.end('{"status":"ok"}'));
  await new Promise<void>((r) => health.listen(0, '127.0.0.1', r));
  const port = (health.address() as AddressInfo).port;
  try {
    await store.migrate();
    const t0 = Date.now();
    const org = await seed(store);
    console.log(`many groups: ${paths} landing paths seeded in ${Date.now() - t0} ms`);
    const q = (bucket: 'none' | 'day'): TrafficQuery => ({
      kind: 'traffic',
      from: new Date(START),
      to: new Date(START + 30 * DAY),
      bucket,
      groupBy: ['landing_path'],
      timeZone: 'America/New_York',
    });
    // Warm: the statements' first plans and the code's first compilation are not the row's.
    await trafficReport(store, org, { ...q('none'), to: new Date(START + DAY) });
    global.gc?.();
    await new Promise((r) => setTimeout(r, 200));
    const idle = process.memoryUsage().rss;
    const json = await probed(port, async () => {
      const report = await trafficReport(store, org, q('none'));
      const body = JSON.stringify(reportJson(org, q('none'), report));
      return { rows: report.rows.length, folded: report.groups?.folded ?? 0, bytes: body.length };
    });
    const csv = await probed(port, async () => {
      const report = await trafficReport(store, org, q('day'));
      let bytes = 0;
      for await (const chunk of reportCsv(q('day'), report)) bytes += String(chunk).length;
      return { rows: report.rows.length, folded: report.groups?.folded ?? 0, bytes };
    });
    for (const [label, r] of [
      ['json, bucket none', json],
      ['csv, bucket day', csv],
    ] as const) {
      const p99 = pct(r.lat, 99);
      const grown = (r.peakRss - idle) / 2 ** 20;
      const holds = r.out.rows <= MAX_REPORT_ROWS && grown < 300 && p99 < 50;
      console.log(
        `  ${label}: ${r.ms.toFixed(0)} ms, ${r.out.rows} rows (${r.out.folded} groups folded), ` +
          `${r.out.bytes} bytes, RSS +${grown.toFixed(0)} MB over idle, /healthz p50 ` +
          `${pct(r.lat, 50).toFixed(1)} ms p99 ${p99.toFixed(1)} ms max ${Math.max(...r.lat).toFixed(1)} ms ` +
          `(${r.lat.length} probes): ${holds ? 'holds' : 'FAILS'}`,
      );
    }
  } finally {
    health.close();
    await store.close();
    await admin.query(`drop database ${name} with (force)`);
    await admin.end();
  }
}
