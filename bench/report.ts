import { execFileSync } from 'node:child_process';
import os from 'node:os';
import type { RowResult } from './measure.js';
import { GOAL_RATE, GOAL_SESSIONS } from './rows.js';

export interface Ratio {
  store: RowResult['store'];
  /** e2e sessions/s ÷ min(HTTP ceiling, batched store ceiling). */
  vsMinCeiling: number | null;
  /** e2e sessions/s ÷ the store ceiling the route can reach (batched; single where not measured). */
  vsStoreCeiling: number | null;
  /** Exhausted pool sessions/s ÷ free pool sessions/s. */
  exhaustedVsFree: number | null;
}

export interface Goal {
  store: RowResult['store'];
  goal: string;
  measured: string;
  met: boolean;
}

const byId = (results: RowResult[], store: string, id: string) =>
  results.find((r) => r.store === store && r.row === id);

export function ratios(results: RowResult[]): Ratio[] {
  const stores = [...new Set(results.map((r) => r.store))];
  return stores.map((store) => {
    const http = byId(results, store, 'http-ceiling');
    const direct =
      byId(results, store, 'store-ceiling-batched') ?? byId(results, store, 'store-ceiling');
    const e2e = byId(results, store, 'dni-create');
    const exhausted = byId(results, store, 'dni-exhausted');
    const floor = http && direct ? Math.min(http.rps, direct.rps) : null;
    return {
      store,
      vsMinCeiling: e2e && floor ? e2e.rps / floor : null,
      vsStoreCeiling: e2e && direct ? e2e.rps / direct.rps : null,
      exhaustedVsFree: e2e && exhausted ? exhausted.rps / e2e.rps : null,
    };
  });
}

/** Issue 14's goals, checked against this run. */
export function goals(results: RowResult[], rs: Ratio[]): Goal[] {
  const out: Goal[] = [];
  for (const r of rs) {
    const e2e = byId(results, r.store, 'dni-create');
    if (!e2e) continue;
    if (r.store === 'postgres') {
      out.push({
        store: r.store,
        goal: `e2e ≥ ${fmt(GOAL_SESSIONS, 0)} sessions/s, p99 ≤ 15 ms (64 connections, free pool)`,
        measured: `${fmt(e2e.rps, 0)}/s, p99 ${fmt(e2e.p99Ms, 1)} ms`,
        met: e2e.rps >= GOAL_SESSIONS && e2e.p99Ms <= 15,
      });
      const paced = byId(results, r.store, 'dni-create-rate');
      if (paced) {
        out.push({
          store: r.store,
          goal: `latency at ${fmt(GOAL_RATE, 0)}/s offered: served in full, p99 ≤ 15 ms`,
          measured: `${fmt(paced.rps, 0)}/s served, p50 ${fmt(paced.p50Ms, 1)} ms, p99 ${fmt(paced.p99Ms, 1)} ms, ${paced.errors} errors`,
          met: paced.p99Ms <= 15 && paced.rps >= 0.98 * GOAL_RATE && paced.errors === 0,
        });
      }
      const analyzed = byId(results, r.store, 'dni-create-analyzed');
      if (analyzed) {
        const ratio = e2e.rps / analyzed.rps;
        out.push({
          store: r.store,
          goal: 'fresh database (no ANALYZE) within 10 % of the same after ANALYZE',
          measured: `${fmt(e2e.rps, 0)}/s fresh ÷ ${fmt(analyzed.rps, 0)}/s analysed = ${fmt(ratio, 2)}×`,
          met: ratio >= 0.9 && ratio <= 1.1,
        });
      }
      if (e2e.cpuPerOpMicros.db !== null) {
        out.push({
          store: r.store,
          goal: 'PostgreSQL CPU per session ≤ 150 µs (e2e)',
          measured: `${fmt(e2e.cpuPerOpMicros.db, 0)} µs`,
          met: e2e.cpuPerOpMicros.db <= 150,
        });
      }
      out.push({
        store: r.store,
        goal: 'DNI create p99 ≤ 15 ms at 64 connections, 0 non-2xx',
        measured: `p99 ${fmt(e2e.p99Ms, 1)} ms, ${e2e.errors} errors`,
        met: e2e.p99Ms <= 15 && e2e.errors === 0,
      });
      if (r.exhaustedVsFree !== null) {
        out.push({
          store: r.store,
          goal: 'exhausted pool within 20 % of the free pool',
          measured: `${fmt(r.exhaustedVsFree, 2)}×`,
          met: r.exhaustedVsFree >= 0.8,
        });
      }
      out.push({
        store: r.store,
        goal: 'e2e ≥ 0.8 × min(HTTP ceiling, batched store ceiling)',
        measured: `${fmt(r.vsMinCeiling ?? 0, 2)}×`,
        met: (r.vsMinCeiling ?? 0) >= 0.8,
      });
    } else {
      out.push({
        store: r.store,
        goal: 'e2e ≥ 0.8 × its own store ceiling (batched)',
        measured: `${fmt(r.vsStoreCeiling ?? 0, 2)}×`,
        met: (r.vsStoreCeiling ?? 0) >= 0.8,
      });
    }
    // The DNI path's server (the goal); the rows that run the workers are shown apart.
    const dni = results.filter(
      (x) => x.store === r.store && x.kind === 'http' && !x.row.startsWith('webhooks'),
    );
    const rss = Math.max(...dni.map((x) => x.peakRssMb));
    out.push({
      store: r.store,
      goal: 'server peak RSS ≤ 200 MB (DNI rows)',
      measured: `${fmt(rss, 0)} MB`,
      met: rss <= 200,
    });
  }
  return out;
}

function fmt(n: number | null, digits: number): string {
  if (n === null) return '–';
  return n.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

function table(head: string[], lines: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const row = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [row(head), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(row)].join('\n');
}

export function render(results: RowResult[], rs: Ratio[], gs: Goal[], notes: string[]): string {
  const out: string[] = [];
  out.push(
    table(
      [
        'store',
        'row',
        'req/s',
        'p50 ms',
        'p99 ms',
        'errors',
        'RSS MB',
        'CPU µs/op srv/db/load',
        'cores used/busy before',
      ],
      results.map((r) => [
        r.store,
        r.title,
        fmt(r.rps, 0),
        fmt(r.p50Ms, 1),
        fmt(r.p99Ms, 1),
        String(r.errors),
        fmt(r.peakRssMb, 0),
        `${fmt(r.cpuPerOpMicros.child, 0)}/${fmt(r.cpuPerOpMicros.db, 0)}/${fmt(r.cpuPerOpMicros.client, 0)}`,
        `${fmt(r.cores.machine, 2)}/${fmt(r.backgroundCores, 2)}`,
      ]),
    ),
  );
  for (const r of results) {
    if (r.errorDetail) out.push(`  ${r.store} ${r.row}: ${r.errorDetail}`);
    if (r.outcomes) out.push(`  ${r.store} ${r.row} outcomes: ${JSON.stringify(r.outcomes)}`);
    if (r.webhooks) {
      out.push(
        `  ${r.store} ${r.row}: ${fmt(r.rps, 0)} events/s produced, ${fmt(r.webhooks.perSecond, 0)}/s delivered to the local receiver (${r.webhooks.delivered} in the window)`,
      );
    }
    if (r.row !== 'dni-exhausted' && (r.outcomes?.shared || r.outcomes?.overflow)) {
      out.push(`  WARNING ${r.store} ${r.row}: the pool ran out during the row; raise BENCH_POOL`);
    }
  }
  const written = results.filter((r) => r.writesPerOp);
  if (written.length) {
    out.push(
      '',
      'Writes per operation (PostgreSQL, measured window; WAL is the whole cluster’s):',
      table(
        [
          'store',
          'row',
          'heap ins',
          'heap upd',
          'HOT %',
          'dead left',
          'index entries',
          'WAL bytes',
        ],
        written.map((r) => {
          const w = r.writesPerOp!;
          return [
            r.store,
            r.row,
            fmt(w.inserted, 2),
            fmt(w.updated, 2),
            fmt(w.hotRatio * 100, 0),
            fmt(w.deadLeft, 2),
            fmt(w.indexEntries, 2),
            fmt(w.walBytes, 0),
          ];
        }),
      ),
    );
  }
  const gens = [...new Set(results.filter((r) => r.loadgen).map((r) => `${r.row}: ${r.loadgen}`))];
  if (gens.length) out.push('', `Load generator: ${gens.join(', ')}`);
  out.push('', 'Ratios (e2e sessions/s):');
  for (const r of rs) {
    out.push(
      `  ${r.store}: ÷ min(HTTP, store) ceiling = ${fmt(r.vsMinCeiling, 2)}, ÷ store ceiling = ${fmt(r.vsStoreCeiling, 2)}`,
    );
  }
  out.push('', 'Goals:');
  for (const g of gs)
    out.push(`  [${g.met ? 'met ' : 'MISS'}] ${g.store}: ${g.goal} — ${g.measured}`);
  for (const n of notes) out.push(`  note: ${n}`);
  return out.join('\n');
}

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return null;
  }
}

export function machineInfo() {
  const cpus = os.cpus();
  const dirty = git(['status', '--porcelain', '--untracked-files=no']);
  return {
    date: new Date().toISOString(),
    gitCommit: git(['rev-parse', 'HEAD']),
    gitDirty: dirty === null ? null : dirty.length > 0,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpuCount: cpus.length,
    totalMemoryMb: Math.round(os.totalmem() / 2 ** 20),
    node: process.version,
  };
}
