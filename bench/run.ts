import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileChildren } from './child.js';
import { type BenchSettings, type RowResult, runRow } from './measure.js';
import { BenchReceiver } from './receiver.js';
import { goals, machineInfo, ratios, render } from './report.js';
import { BENCH_SECRETS_KEY, rows } from './rows.js';
import { seedRows } from './seed.js';
import { pgliteTarget, postgresTarget, type StoreTarget } from './stores.js';

function num(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number`);
  return n;
}

const settings: BenchSettings = {
  seconds: num('BENCH_SECONDS', 10),
  warmupSeconds: num('BENCH_WARMUP_SECONDS', 3),
  connections: num('BENCH_CONNECTIONS', 64),
  logLevel: process.env.BENCH_LOG_LEVEL || process.env.LOG_LEVEL || 'info',
  poolSize: num('BENCH_POOL', 150_000),
  cpuProfDir: process.env.BENCH_CPU_PROF || undefined,
};
const pgUrl = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const only = process.env.BENCH_STORES?.split(',') ?? ['pglite', 'postgres'];
const onlyRows = process.env.BENCH_ROWS?.split(',');
const resultsDir = join(import.meta.dirname, 'results');

async function main(): Promise<void> {
  const machine = machineInfo();
  const selected = onlyRows ? rows.filter((r) => onlyRows.includes(r.id)) : rows;
  const notes: string[] = [];
  const stores: { kind: string; version?: string; skipped?: string }[] = [];
  const results: RowResult[] = [];
  compileChildren();
  const receiver = await new BenchReceiver().start();
  if (settings.cpuProfDir) mkdirSync(settings.cpuProfDir, { recursive: true });
  console.log(
    `bench: ${settings.seconds}s per row after ${settings.warmupSeconds}s warm-up, ${settings.connections} connections, LOG_LEVEL=${settings.logLevel}, pool ${settings.poolSize}`,
  );

  for (const kind of only) {
    let target: StoreTarget | string;
    if (kind === 'pglite') target = await pgliteTarget();
    else if (kind === 'postgres') target = await postgresTarget(pgUrl);
    else throw new Error(`BENCH_STORES: unknown store ${kind}`);
    if (typeof target === 'string') {
      console.log(target);
      notes.push(target);
      stores.push({ kind, skipped: target });
      continue;
    }
    stores.push({ kind, version: target.version });
    // Every process on this store opens the conversions row's destination secrets at start-up.
    target.env.SECRETS_KEY = BENCH_SECRETS_KEY;
    try {
      console.log(`${kind}: ${target.version}; seeding…`);
      const here = selected.filter((r) => !r.stores || r.stores.includes(target.kind));
      const { apiKey, seeds } = await seedRows(
        target.env,
        here,
        settings.poolSize,
        receiver.url,
        receiver.base,
      );
      for (const row of here) {
        const r = await runRow(target, row, seeds[row.id] ?? {}, apiKey, settings, receiver);
        const hooks = r.webhooks
          ? `, ${row.delivered ?? 'webhooks delivered'} ${r.webhooks.perSecond.toFixed(0)}/s`
          : '';
        console.log(
          `  ${row.id}: ${r.rps.toFixed(0)}/s p50 ${r.p50Ms.toFixed(1)} ms p99 ${r.p99Ms.toFixed(1)} ms errors ${r.errors} RSS ${r.peakRssMb.toFixed(0)} MB${hooks}`,
        );
        results.push(r);
      }
    } finally {
      await target.cleanup();
    }
  }

  receiver.close();
  const rs = ratios(results);
  const gs = goals(results, rs);
  console.log(`\n${render(results, rs, gs, notes)}`);
  mkdirSync(resultsDir, { recursive: true });
  const file = process.env.BENCH_OUT || join(resultsDir, `${machine.date.slice(0, 10)}.json`);
  const { cpuProfDir: _, ...recorded } = settings;
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        machine,
        settings: {
          ...recorded,
          databasePoolSize: Number(process.env.DATABASE_POOL_SIZE || 16),
          pgliteSharedBuffers: process.env.PGLITE_SHARED_BUFFERS || '16MB',
        },
        stores,
        results,
        ratios: rs,
        goals: gs,
        notes,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwritten ${file}`);
}

// `npm run bench -- <part>`: one part alone instead of the load rows.
const parts: Record<string, () => Promise<void>> = {
  reports: () => import('./reports.js').then((m) => m.benchReports()),
  'many-groups': () => import('./many-groups.js').then((m) => m.benchManyGroups()),
  routing: () => import('./routing.js').then((m) => m.benchRouting()),
  start: () => import('./start.js').then((m) => m.benchStart()),
  versus: () => import('./versus.js').then((m) => m.versus()),
};
const part = process.argv[2];
const entry = part === undefined ? main : parts[part];
if (!entry) {
  console.error(`npm run bench -- ${part}: unknown part (known: ${Object.keys(parts).join(', ')})`);
  process.exit(64);
}
entry().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
