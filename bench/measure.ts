import { join } from 'node:path';
import autocannon from 'autocannon';
import { Child, compiledBench } from './child.js';
import type { DirectResult } from './direct.js';
import type { BenchReceiver } from './receiver.js';
import type { BenchRow, Json } from './rows.js';
import { backgroundCores, machineTicks } from './stats.js';
import type { StoreTarget, Writes } from './stores.js';
import type { Message, Usage } from './usage.js';
import { runWrk, wrkAvailable } from './wrk.js';

export interface BenchSettings {
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** The server's LOG_LEVEL: `info`, the service's default, logs every request. */
  logLevel: string;
  poolSize: number;
  /** Set: each row's child writes a CPU profile of its measured window here (<store>-<row>.cpuprofile). */
  cpuProfDir: string | undefined;
}

export interface RowResult {
  store: StoreTarget['kind'];
  row: string;
  kind: 'http' | 'direct';
  title: string;
  note?: string;
  /** Successful (2xx, or resolved for direct rows) operations in the measured window. */
  ok: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Connection errors, timeouts and non-2xx answers (or rejected calls). */
  errors: number;
  errorDetail?: string;
  /** Peak RSS of the child process (server, or the direct loop) over its whole life. */
  peakRssMb: number;
  /** CPU used during the measured window, in cores: the child, the load generator (this process), the whole machine. */
  cores: { child: number; client: number | null; machine: number | null };
  /**
   * CPU time per successful operation, in µs: robust when other jobs share the
   * machine. `db` is PostgreSQL's backends for this database (null for PGlite,
   * which runs inside the child).
   */
  cpuPerOpMicros: { child: number; db: number | null; client: number | null };
  /** Cores busy on the machine just before the row started, with none of its processes running. */
  backgroundCores: number | null;
  /** DNI outcomes counted by the server during the measured window. */
  outcomes?: Record<string, number>;
  /** Webhook rows: what the parent's receiver got during the measured window. */
  webhooks?: { delivered: number; perSecond: number };
  /** HTTP rows: the load generator (wrk when installed, else autocannon). */
  loadgen?: 'wrk' | 'autocannon';
  /**
   * PostgreSQL: what the measured window wrote, per successful operation
   * (heap tuples inserted and updated, HOT share of the updates, dead tuples
   * left, index entries, WAL bytes of the whole cluster).
   */
  writesPerOp?: Writes & { hotRatio: number };
}

interface Window {
  seconds: number;
  dbMicros: number | null;
  childCores: number;
  clientCores: number;
  machineCores: number | null;
  outcomes?: Record<string, number>;
}

/** Runs `work` and measures the CPU every party spent meanwhile. */
async function window<T>(
  target: StoreTarget,
  child: Child,
  profile: string | null,
  work: () => Promise<T>,
): Promise<{ value: T; window: Window }> {
  if (profile) await child.ask({ type: 'profile-start' }, 'profiling');
  const u0 = await child.ask<Message & Usage>({ type: 'usage' }, 'usage');
  const db0 = await target.serverCpuMicros();
  const t0 = await machineTicks();
  const c0 = process.cpuUsage();
  const start = process.hrtime.bigint();
  const value = await work();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const c1 = process.cpuUsage(c0);
  const t1 = await machineTicks();
  const db1 = await target.serverCpuMicros();
  const u1 = await child.ask<Message & Usage>({ type: 'usage' }, 'usage');
  if (profile) await child.ask({ type: 'profile-stop', file: profile }, 'profiled');
  const cpus = (await import('node:os')).cpus().length;
  let outcomes: Record<string, number> | undefined;
  if (u1.outcomes) {
    outcomes = {};
    for (const [k, v] of Object.entries(u1.outcomes)) {
      const d = v - (u0.outcomes?.[k] ?? 0);
      if (d > 0) outcomes[k] = d;
    }
  }
  return {
    value,
    window: {
      seconds,
      dbMicros: db0 !== null && db1 !== null ? db1 - db0 : null,
      childCores: (u1.cpuMicros - u0.cpuMicros) / 1e6 / seconds,
      clientCores: (c1.user + c1.system) / 1e6 / seconds,
      machineCores:
        t0 && t1 && t1.total > t0.total
          ? ((t1.busy - t0.busy) / (t1.total - t0.total)) * cpus
          : null,
      ...(outcomes ? { outcomes } : {}),
    },
  };
}

/**
 * The database's write counters once the warm-up's have reached them: a
 * PostgreSQL backend flushes its table statistics at most once a second, and
 * within about a second of going idle. After the row the children have
 * stopped (their backends exited, flushing everything), so the difference is
 * the measured window's alone.
 */
async function settledWrites(target: StoreTarget): Promise<Writes | null> {
  if (target.kind !== 'postgres') return null;
  await new Promise((r) => setTimeout(r, 2_000));
  return target.writes();
}

function diffWrites(a: Writes | null, b: Writes | null): Writes | null {
  if (!a || !b) return null;
  return {
    inserted: b.inserted - a.inserted,
    updated: b.updated - a.updated,
    hotUpdated: b.hotUpdated - a.hotUpdated,
    deadLeft: b.deadLeft - a.deadLeft,
    indexEntries: b.indexEntries - a.indexEntries,
    walBytes: b.walBytes - a.walBytes,
  };
}

function profileFile(s: BenchSettings, target: StoreTarget, row: BenchRow): string | null {
  return s.cpuProfDir ? join(s.cpuProfDir, `${target.kind}-${row.id}.cpuprofile`) : null;
}

function statusDetail(r: autocannon.Result): string | undefined {
  const parts = Object.entries(r.statusCodeStats ?? {})
    .filter(([code]) => !code.startsWith('2'))
    .map(([code, s]) => `${code}×${s.count}`);
  if (r.errors) parts.push(`connection errors×${r.errors} (timeouts ${r.timeouts})`);
  return parts.length ? parts.join(', ') : undefined;
}

async function runHttp(
  target: StoreTarget,
  row: BenchRow,
  seed: Json,
  apiKey: string,
  s: BenchSettings,
  receiver?: BenchReceiver,
) {
  const child = Child.start('server.js', { ...target.env, LOG_LEVEL: s.logLevel, ...row.env });
  try {
    const { port } = await child.next<Message & { port: number }>('ready');
    if (row.wrk && !row.rate && wrkAvailable()) {
      const wrk = (phase: 'warmup' | 'measure', seconds: number) =>
        runWrk(`http://127.0.0.1:${port}`, row.wrk!({ apiKey, seed, phase }), {
          seconds,
          connections: s.connections,
          prefix: `${phase}-${Date.now().toString(36)}-`,
        });
      await wrk('warmup', s.warmupSeconds);
      const writes0 = await settledWrites(target);
      const { value: r, window: w } = await window(target, child, profileFile(s, target, row), () =>
        wrk('measure', s.seconds),
      );
      const usage = await child.stop();
      const writes = diffWrites(writes0, await target.writes());
      const errors = r.non2xx + r.socketErrors;
      return {
        loadgen: 'wrk' as const,
        writes,
        ok: r.requests - r.non2xx,
        seconds: r.seconds,
        p50Ms: r.p50Ms,
        p99Ms: r.p99Ms,
        errors,
        errorDetail: errors ? `non-2xx×${r.non2xx}, socket errors×${r.socketErrors}` : undefined,
        usage,
        // The parent idles while wrk runs: the generator's CPU is wrk's own.
        w: { ...w, clientCores: r.cpuMicros / 1e6 / w.seconds },
      };
    }
    const load = (phase: string, duration: number) =>
      autocannon({
        url: `http://127.0.0.1:${port}`,
        connections: s.connections,
        duration,
        requests: row.http!({ apiKey, seed, phase }),
        ...(row.rate ? { overallRate: row.rate } : {}),
      });
    await load('warmup', s.warmupSeconds);
    const writes0 = await settledWrites(target);
    const received0 = receiver?.count ?? 0;
    const { value: r, window: w } = await window(target, child, profileFile(s, target, row), () =>
      load('measure', s.seconds),
    );
    const delivered = (receiver?.count ?? 0) - received0;
    const usage = await child.stop();
    const writes = diffWrites(writes0, await target.writes());
    return {
      loadgen: 'autocannon' as const,
      writes,
      ...(receiver ? { webhooks: { delivered, perSecond: delivered / w.seconds } } : {}),
      ok: r['2xx'],
      seconds: r.duration,
      p50Ms: r.latency.p50,
      p99Ms: r.latency.p99,
      errors: r.errors + r.non2xx,
      errorDetail: statusDetail(r),
      usage,
      w,
    };
  } finally {
    child.kill();
  }
}

async function runDirect(target: StoreTarget, row: BenchRow, seed: Json, s: BenchSettings) {
  const child = Child.start('direct.js', {
    ...target.env,
    BENCH_DIRECT_MODULE: join(compiledBench, row.direct!),
    BENCH_SEED: JSON.stringify(seed),
    BENCH_CONNECTIONS: String(s.connections),
  });
  try {
    await child.next('ready');
    const run = (seconds: number) =>
      child.ask<Message & DirectResult>(
        { type: 'run', seconds },
        'result',
        seconds * 1000 + 60_000,
      );
    await run(s.warmupSeconds);
    const writes0 = await settledWrites(target);
    const { value: r, window: w } = await window(target, child, profileFile(s, target, row), () =>
      run(s.seconds),
    );
    const usage = await child.stop();
    const writes = diffWrites(writes0, await target.writes());
    return {
      writes,
      ok: r.count,
      seconds: r.seconds,
      p50Ms: r.p50Ms,
      p99Ms: r.p99Ms,
      errors: r.errors,
      errorDetail: r.firstError ?? undefined,
      usage,
      w,
    };
  } finally {
    child.kill();
  }
}

function perOpWrites(w: Writes, ok: number): Writes & { hotRatio: number } {
  return {
    inserted: w.inserted / ok,
    updated: w.updated / ok,
    hotUpdated: w.hotUpdated / ok,
    deadLeft: w.deadLeft / ok,
    indexEntries: w.indexEntries / ok,
    walBytes: w.walBytes / ok,
    hotRatio: w.updated > 0 ? w.hotUpdated / w.updated : 0,
  };
}

/** One row on one store, in a fresh child: warm-up, then the measured window. */
export async function runRow(
  target: StoreTarget,
  row: BenchRow,
  seed: Json,
  apiKey: string,
  s: BenchSettings,
  receiver?: BenchReceiver,
): Promise<RowResult> {
  if (row.analyzeFirst) await target.analyze();
  const background = await backgroundCores();
  const m: Awaited<ReturnType<typeof runDirect>> & {
    webhooks?: RowResult['webhooks'];
    loadgen?: RowResult['loadgen'];
  } = row.http
    ? await runHttp(target, row, seed, apiKey, s, row.countsWebhooks ? receiver : undefined)
    : await runDirect(target, row, seed, s);
  // Operations in the CPU window (which also spans the IPC round trips around it).
  const perOp = (micros: number) => (m.ok > 0 ? micros / ((m.ok / m.seconds) * m.w.seconds) : 0);
  return {
    store: target.kind,
    row: row.id,
    kind: row.http ? 'http' : 'direct',
    title: row.title,
    ...(row.note ? { note: row.note } : {}),
    ok: m.ok,
    seconds: m.seconds,
    rps: m.ok / m.seconds,
    p50Ms: m.p50Ms,
    p99Ms: m.p99Ms,
    errors: m.errors,
    ...(m.errorDetail ? { errorDetail: m.errorDetail } : {}),
    peakRssMb: m.usage.maxRssKb / 1024,
    cores: {
      child: m.w.childCores,
      client: row.http ? m.w.clientCores : null,
      machine: m.w.machineCores,
    },
    cpuPerOpMicros: {
      child: perOp(m.w.childCores * m.w.seconds * 1e6),
      db: m.w.dbMicros === null ? null : perOp(m.w.dbMicros),
      client: row.http ? perOp(m.w.clientCores * m.w.seconds * 1e6) : null,
    },
    backgroundCores: background,
    ...(m.w.outcomes && Object.keys(m.w.outcomes).length ? { outcomes: m.w.outcomes } : {}),
    ...(m.webhooks ? { webhooks: m.webhooks } : {}),
    ...(m.loadgen ? { loadgen: m.loadgen } : {}),
    ...(m.writes && m.ok > 0 ? { writesPerOp: perOpWrites(m.writes, m.ok) } : {}),
  };
}
