import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { Child, compileChildren } from './child.js';
import { seedRows } from './seed.js';
import { postgresTarget, processCpuMicros } from './stores.js';
import type { Message } from './usage.js';
import { runWrk, type WrkResult, wrkAvailable } from './wrk.js';

/**
 * `npm run bench -- versus`: POST /dni/session on this service against the
 * FastAPI + asyncpg peer (../shared/peers/fastapi_dni, never copied here), on
 * the same PostgreSQL, alternating runs, wrk -t1 -c64, a new visitor per
 * request, 100,000 free numbers, a database loaded a moment before and never
 * analysed; then this service again after ANALYZE (issue 23). Without wrk, or
 * without Python's FastAPI, uvicorn and asyncpg, the peer's row says so and
 * is skipped.
 */

const root = join(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const warmup = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
const POOL = Number(process.env.BENCH_POOL ?? 100_000);
const pgUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const peerDir = process.env.BENCH_PEER_DIR || join(root, '../shared/peers/fastapi_dni');
const python = process.env.BENCH_PEER_PYTHON || '/usr/bin/python3';
const PEER_KEY = 'svc_live_00000000000000000000000000000000000000aa';

interface Run {
  who: 'service' | 'service, after ANALYZE' | 'peer';
  round: number;
  wrk: WrkResult;
  /** CPU µs per 2xx: the server's processes, PostgreSQL's backends, wrk. */
  perOp: { server: number; db: number; wrk: number };
}

function peerMissing(): string | null {
  if (!existsSync(join(peerDir, 'app.py'))) return `no peer at ${peerDir} (BENCH_PEER_DIR)`;
  try {
    execFileSync(python, ['-c', 'import fastapi, uvicorn, asyncpg'], { stdio: 'ignore' });
    return null;
  } catch {
    return `${python} lacks fastapi, uvicorn or asyncpg (apt-get install python3-fastapi python3-uvicorn python3-asyncpg)`;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** CPU of every backend serving `db` plus the given processes (and their children), µs. */
async function cpu(admin: pg.Client, db: string, pids: number[]): Promise<number> {
  const { rows } = await admin.query<{ pid: number }>(
    'select pid from pg_stat_activity where datname = $1',
    [db],
  );
  const backends = rows.reduce((s, r) => s + (processCpuMicros(r.pid) ?? 0), 0);
  return backends + pids.reduce((s, p) => s + (processCpuMicros(p) ?? 0), 0);
}

function dniLoad(code: string, key: string) {
  return {
    method: 'POST' as const,
    path: '/dni/session',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ campaign_code: code, visitor_id: 'v-{n}' }),
  };
}

/** Warm-up, then a measured window with the CPU of the server (`pids`) and the database. */
async function measure(
  who: Run['who'],
  round: number,
  url: string,
  load: ReturnType<typeof dniLoad>,
  admin: pg.Client,
  db: string,
  pids: () => number[],
): Promise<Run> {
  // Visitors of their own per run: the run after ANALYZE shares the database of the fresh
  // one, and the same visitor ids would make it measure renewals, not new sessions.
  const tag = `${who === 'service, after ANALYZE' ? 'a' : ''}${round}`;
  await runWrk(url, load, { seconds: warmup, connections, prefix: `w${tag}-` });
  const before = { db: await cpu(admin, db, []), server: await cpu(admin, '', pids()) };
  const r = await runWrk(url, load, { seconds, connections, prefix: `m${tag}-` });
  const after = { db: await cpu(admin, db, []), server: await cpu(admin, '', pids()) };
  const ok = Math.max(1, r.requests - r.non2xx);
  return {
    who,
    round,
    wrk: r,
    perOp: {
      server: (after.server - before.server) / ok,
      db: (after.db - before.db) / ok,
      wrk: r.cpuMicros / ok,
    },
  };
}

async function serviceRuns(round: number, admin: pg.Client): Promise<Run[]> {
  const target = await postgresTarget(pgUrl);
  if (typeof target === 'string') throw new Error(target);
  const db = new URL(target.env.DATABASE_URL!).pathname.slice(1);
  try {
    // One campaign per run, each with the whole pool free: at this service's rate a run takes
    // 70,000 numbers of 100,000, so a second run on the same pool would measure a nearly
    // exhausted one (1,500 ms p99), not the effect of ANALYZE.
    const kinds = ['service', 'service, after ANALYZE'] as const;
    const { apiKey, seeds } = await seedRows(
      target.env,
      kinds.map((who) => ({
        id: who,
        title: '',
        seed: async (api) => ({ code: await api.campaign(1) }),
      })),
      0,
    );
    const codes: Record<string, string> = {};
    // The rest of each pool in one statement, slots as the insert trigger
    // would number them (it takes a row lock per number: minutes for 100,000).
    const c = new pg.Client({ connectionString: target.env.DATABASE_URL });
    await c.connect();
    try {
      await c.query('alter table tracking_numbers disable trigger tracking_numbers_slot');
      for (const [i, who] of kinds.entries()) {
        const code = seeds[who]!.code as string;
        codes[who] = code;
        await c.query(
          `insert into tracking_numbers (e164, org_id, campaign_id, role, slot)
           select '+1415' || ($3::int + g), t.org_id, t.campaign_id, 'pool', g
             from (select n.org_id, n.campaign_id from tracking_numbers n
                     join campaigns k on k.org_id = n.org_id and k.id = n.campaign_id
                    where k.code = $2 limit 1) t,
                  generate_series(1, $1::int - 1) g`,
          [POOL, code, 3_000_000 + i * 1_000_000],
        );
      }
      await c.query('alter table tracking_numbers enable trigger tracking_numbers_slot');
      await c.query('update campaigns set pool_size = $1', [POOL]);
    } finally {
      await c.end();
    }
    const runs: Run[] = [];
    for (const who of kinds) {
      if (who !== 'service') await target.analyze();
      const child = Child.start('server.js', { ...target.env, LOG_LEVEL: 'info' });
      try {
        const { port, pid } = await child.next<Message & { port: number; pid: number }>('ready');
        runs.push(
          await measure(
            who,
            round,
            `http://127.0.0.1:${port}`,
            dniLoad(codes[who]!, apiKey),
            admin,
            db,
            () => [pid],
          ),
        );
        await child.stop();
      } finally {
        child.kill();
      }
    }
    return runs;
  } finally {
    await target.cleanup();
  }
}

async function peerRun(round: number, admin: pg.Client): Promise<Run> {
  const db = `peer_bench_${randomBytes(6).toString('hex')}`;
  await admin.query(`create database ${db}`);
  const url = new URL(pgUrl);
  url.pathname = `/${db}`;
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  const port = await freePort();
  let proc: ReturnType<typeof spawn> | undefined;
  try {
    await c.query(readFileSync(join(peerDir, 'schema.sql'), 'utf8'));
    await c.query(
      `insert into peer_numbers (campaign_id, e164)
       select 1, '+1416' || (3000000 + g) from generate_series(1, $1::int - 1000) g`,
      [POOL],
    );
    proc = spawn(
      python,
      [
        '-m',
        'uvicorn',
        'app:app',
        '--app-dir',
        peerDir,
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--workers',
        '2',
        '--log-level',
        'warning',
      ],
      { env: { ...process.env, PEER_DSN: url.toString() }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        if (i > 100) throw new Error('the peer did not start');
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    // uvicorn's workers are its children: count the whole group.
    const group = () => {
      try {
        return execFileSync('pgrep', ['-g', String(proc!.pid)], { encoding: 'utf8' })
          .split('\n')
          .filter(Boolean)
          .map(Number);
      } catch {
        return [proc!.pid!];
      }
    };
    return await measure('peer', round, base, dniLoad('BEN', PEER_KEY), admin, db, group);
  } finally {
    proc?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    await c.end();
    await admin.query(`drop database if exists ${db} with (force)`);
  }
}

const fmt = (n: number, d = 0) =>
  n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : 0;
};
const rps = (r: Run) => (r.wrk.requests - r.wrk.non2xx) / r.wrk.seconds;

export async function versus(): Promise<void> {
  if (!wrkAvailable()) {
    console.log('versus: skipped, wrk is not installed (apt-get install wrk)');
    return;
  }
  const missing = peerMissing();
  compileChildren();
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  const runs: Run[] = [];
  console.log(
    `versus: ${rounds} rounds, ${seconds}s each after ${warmup}s warm-up, wrk -t1 -c${connections}, pool ${fmt(POOL)}`,
  );
  try {
    for (let round = 1; round <= rounds; round++) {
      // Alternate who goes first, so neither always runs on a warmer machine.
      const order = round % 2 ? ['service', 'peer'] : ['peer', 'service'];
      for (const who of order) {
        if (who === 'peer') {
          if (missing) continue;
          const r = await peerRun(round, admin);
          runs.push(r);
          console.log(`  round ${round} peer: ${fmt(rps(r))}/s p99 ${fmt(r.wrk.p99Ms, 1)} ms`);
        } else {
          for (const r of await serviceRuns(round, admin)) {
            runs.push(r);
            console.log(
              `  round ${round} ${r.who}: ${fmt(rps(r))}/s p99 ${fmt(r.wrk.p99Ms, 1)} ms`,
            );
          }
        }
      }
    }
  } finally {
    await admin.end();
  }
  console.log(
    '\nwho                     round   req/s  p50 ms  p99 ms  non-2xx  CPU µs/op server/db/wrk',
  );
  for (const r of runs) {
    console.log(
      `${r.who.padEnd(22)}  ${String(r.round).padStart(5)}  ${fmt(rps(r)).padStart(6)}  ${fmt(r.wrk.p50Ms, 1).padStart(6)}  ${fmt(r.wrk.p99Ms, 1).padStart(6)}  ${String(r.wrk.non2xx + r.wrk.socketErrors).padStart(7)}  ${fmt(r.perOp.server)}/${fmt(r.perOp.db)}/${fmt(r.perOp.wrk)}`,
    );
  }
  const m = (who: Run['who']) => median(runs.filter((r) => r.who === who).map(rps));
  const fresh = m('service');
  const analyzed = m('service, after ANALYZE');
  console.log(`\nservice fresh ÷ after ANALYZE: ${fmt(fresh / analyzed, 2)}× (goal: within 10 %)`);
  if (missing) console.log(`peer: skipped, ${missing}`);
  else
    console.log(
      `service ÷ peer (medians, fresh database): ${fmt(fresh / m('peer'), 2)}× (goal ≥ 6×)`,
    );
}
