/**
 * npm run bench -- reports: the report read model at scale (issue 20).
 *
 * Seeds one organization by SQL in bulk (sessions, calls, buyer reports,
 * touches over 90 days), builds its rollups (report_rebuild), then times each
 * report for the last 30 days by day × campaign × source (p50 and p95), and
 * DNI batch throughput with and without the report counters, alternated in
 * the same run. BENCH_REPORT_SCALE (default 1) scales every count: 1 is
 * 10,000,000 sessions on PostgreSQL and 1,000,000 on the embedded store.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { newId } from '../src/domain/ids.js';
import type { TouchQuery, TrafficQuery } from '../src/domain/reports/types.js';
import { openStore, type Store } from '../src/store/db.js';
import { touchReport, trafficReport } from '../src/store/queries/reports.js';
import { openSessions, REQUEST_ARGS, requestArrays } from '../src/store/repos/dni.js';
import { benchConsolePages } from './console-pages.js';
import { seededBefore, seedReports } from './reports-seed.js';

const DAY = 86_400_000;
const scale = Number(process.env.BENCH_REPORT_SCALE ?? 1);
const runs = Number(process.env.BENCH_REPORT_RUNS ?? 20);
const dniSeconds = Number(process.env.BENCH_REPORT_DNI_SECONDS ?? 5);
const dniRounds = Number(process.env.BENCH_REPORT_DNI_ROUNDS ?? 1);
const pgUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const only = process.env.BENCH_STORES?.split(',') ?? ['postgres', 'pglite'];
/** BENCH_REPORT_KEEP=1 keeps the PostgreSQL database; BENCH_REPORT_DB=name times one kept before. */
const keep = process.env.BENCH_REPORT_KEEP === '1' || !!process.env.BENCH_REPORT_DB;
const reuse = process.env.BENCH_REPORT_DB || undefined;

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};

async function time(label: string, f: () => Promise<unknown>) {
  await f(); // warm
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    ms.push(performance.now() - t0);
  }
  const r = { label, p50: pct(ms, 50), p95: pct(ms, 95) };
  console.log(`  ${label}: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms (${runs} runs)`);
  return r;
}

/** DNI batches of 64 from `loops` loops for `seconds`; request times move a day per phase. */
async function dniPhase(
  store: Store,
  orgId: string,
  loops: number,
  rollups: boolean,
  base: number,
) {
  const t0 = Date.now();
  const deadline = t0 + dniSeconds * 1000;
  let done = 0;
  let seq = 0;
  const loop = async () => {
    while (Date.now() < deadline) {
      const now = base + (Date.now() - t0);
      const requests = Array.from({ length: 64 }, () => ({
        orgId,
        campaignCode: 'bd',
        visitorId: `v${base}-${seq++}`,
        now: new Date(now),
        newSessionId: newId('ds', now),
        attrs: { utm_source: seq % 2 ? 'google' : null, landing_url: `https://ex.org/p${seq % 9}` },
      }));
      // With the counters, the service's statement; without, dni_open_sessions alone.
      if (rollups) await openSessions(store, requests as never);
      else {
        const sql = `select * from dni_open_sessions(${REQUEST_ARGS})`;
        await store.query(sql, requestArrays(requests as never));
      }
      done += requests.length;
    }
  };
  await Promise.all(Array.from({ length: loops }, loop));
  return done / ((Date.now() - t0) / 1000);
}

/**
 * DNI batch throughput with and without the report counters: one warm-up phase, not counted,
 * then without, with, with, without per round (ABBA), so the machine's drift over the run
 * weighs on both alike. On PostgreSQL each phase starts after a CHECKPOINT: the seed and the
 * phases before leave dirty pages whose write-back otherwise lands in whichever phase is next
 * (phases of one run spread from 7,000 to 18,000/s). Each round's ratio is printed; the
 * figure is their median.
 */
async function dniRatio(
  store: Store,
  kind: 'postgres' | 'pglite',
  seeded: { orgId: string; end: number },
) {
  const loops = kind === 'postgres' ? 4 : 1;
  let phaseBase = seeded.end + DAY;
  const phase = async (rollups: boolean) => {
    if (kind === 'postgres') await store.query('checkpoint', []);
    const rate = await dniPhase(store, seeded.orgId, loops, rollups, phaseBase);
    phaseBase += DAY;
    return rate;
  };
  await phase(true);
  const rounds: { without: number; with: number }[] = [];
  for (let i = 0; i < dniRounds; i++) {
    const a = await phase(false);
    const b = await phase(true);
    const c = await phase(true);
    const d = await phase(false);
    rounds.push({ without: (a + d) / 2, with: (b + c) / 2 });
  }
  const ratios = rounds.map((r) => r.with / r.without).sort((x, y) => x - y);
  const median = ratios[Math.floor((ratios.length - 1) / 2)]!;
  const mean = (xs: number[]) => xs.reduce((x, y) => x + y, 0) / xs.length;
  const dni = {
    without: mean(rounds.map((r) => r.without)),
    with: mean(rounds.map((r) => r.with)),
    ratio: median,
  };
  console.log(
    `  DNI batches (64 per statement, ${loops} in flight, ${dniRounds} ABBA rounds): without rollups ${dni.without.toFixed(0)}/s, with ${dni.with.toFixed(0)}/s; ratio by round ${ratios.map((r) => r.toFixed(3)).join(', ')}; median ${median.toFixed(3)}`,
  );
  return dni;
}

async function benchStore(kind: 'postgres' | 'pglite') {
  let store: Store;
  let cleanup: () => Promise<void>;
  if (kind === 'postgres') {
    const name = reuse ?? `tracking_bench_reports_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    if (!reuse) await admin.query(`create database ${name}`);
    const url = new URL(pgUrl);
    url.pathname = `/${name}`;
    store = await openStore({ databaseUrl: url.toString(), poolSize: 8 });
    cleanup = async () => {
      await store.close();
      if (keep) console.log(`  kept: BENCH_REPORT_DB=${name}`);
      else await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'bench-reports-'));
    store = await openStore({ dataDir: dir });
    cleanup = async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  try {
    if (!reuse) await store.migrate();
    const sessions = Math.round((kind === 'postgres' ? 10_000_000 : 1_000_000) * scale);
    const counts = {
      sessions,
      calls: Math.round(sessions / 10),
      reports: Math.round(sessions / 50),
      touches: Math.round(sessions / 10),
    };
    let seeded: Awaited<ReturnType<typeof seedReports>>;
    if (reuse && kind === 'postgres') {
      seeded = await seededBefore(store);
      console.log(`${kind}: ${reuse}, seeded before`);
    } else {
      console.log(`${kind}: seeding ${JSON.stringify(counts)} over 90 days…`);
      seeded = await seedReports(store, counts);
      console.log(
        `  seeded in ${(seeded.seedMs / 1000).toFixed(0)} s, rollups built in ${(seeded.rebuildMs / 1000).toFixed(0)} s`,
      );
    }
    const to = new Date(seeded.end);
    const from = new Date(seeded.end - 30 * DAY);
    const base = { from, to, bucket: 'day' as const, timeZone: 'America/New_York' };
    const traffic: TrafficQuery = { ...base, kind: 'traffic', groupBy: ['campaign', 'source'] };
    const touches: TouchQuery = { ...base, kind: 'touches', groupBy: ['campaign', 'outcome'] };
    const results = [
      await time('traffic, 30 days by day × campaign × source', () =>
        trafficReport(store, seeded.orgId, traffic),
      ),
      await time('touches, 30 days by day × campaign × outcome', () =>
        touchReport(store, seeded.orgId, touches),
      ),
      await time('traffic, 30 days by day × landing_path × attribution', () =>
        trafficReport(store, seeded.orgId, {
          ...traffic,
          groupBy: ['landing_path', 'attribution'],
        }),
      ),
      // The console's pages over the same organization and 30 days (bench/console-pages.ts).
      ...(await benchConsolePages(store, seeded.orgId, seeded.end, time)),
    ];
    const dni = dniRounds > 0 ? await dniRatio(store, kind, seeded) : null;
    return { kind, counts, results, dni };
  } finally {
    await cleanup();
  }
}

export async function benchReports(): Promise<void> {
  console.log(
    `bench reports: scale ${scale}, ${runs} runs per report, DNI phases of ${dniSeconds} s`,
  );
  for (const kind of only) {
    if (kind !== 'postgres' && kind !== 'pglite') continue;
    await benchStore(kind);
  }
}
