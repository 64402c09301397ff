import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.js';
import { openStore, type Store } from '../src/store/db.js';
import { percentile } from './stats.js';
import { commonMessage, type Message, ownUsage } from './usage.js';

/** Given the store and the row's seed, returns the call each in-flight loop repeats. */
export type DirectOperation = (
  store: Store,
  seed: Record<string, unknown>,
) => () => Promise<unknown>;

export interface DirectResult {
  count: number;
  errors: number;
  seconds: number;
  p50Ms: number;
  p99Ms: number;
  firstError: string | null;
}

/** `concurrency` loops, each awaiting one call before starting the next, for `seconds`. */
async function drive(call: () => Promise<unknown>, concurrency: number, seconds: number) {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  const start = performance.now();
  const end = start + seconds * 1000;
  const loop = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      try {
        await call();
        latencies.push(performance.now() - t);
      } catch (err) {
        errors++;
        firstError ??= err instanceof Error ? err.message : String(err);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    errors,
    seconds: elapsed,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    firstError,
  } satisfies DirectResult;
}

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    poolSize: config.databasePoolSize,
    pgliteSharedBuffers: config.pgliteSharedBuffers,
  });
  const mod = (await import(process.env.BENCH_DIRECT_MODULE as string)) as {
    operation: DirectOperation;
  };
  const call = mod.operation(store, JSON.parse(process.env.BENCH_SEED ?? '{}'));
  const concurrency = Number(process.env.BENCH_CONNECTIONS);
  process.on('message', (m: Message) => {
    if (commonMessage(m, (r) => process.send?.(r))) return;
    if (m.type === 'run') {
      void drive(call, concurrency, m.seconds as number).then((r) =>
        process.send?.({ type: 'result', ...r }),
      );
    } else if (m.type === 'usage') {
      process.send?.({ type: 'usage', ...ownUsage() });
    } else if (m.type === 'stop') {
      void store.close().then(() => {
        process.send?.({ type: 'stopped', ...ownUsage() }, () => process.exit(0));
      });
    }
  });
  process.send?.({ type: 'ready' });
}

main().catch((err: unknown) => {
  process.stderr.write(`direct child failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
