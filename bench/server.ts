import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Clock, systemClock } from '../src/deps.js';
import { createLogger } from '../src/logger.js';
import { openRuntime } from '../src/runtime.js';
import { commonMessage, type Message, ownUsage, type Usage } from './usage.js';

/**
 * The public API as `npm start` runs it (same config loader, runtime and
 * app), plus one trivial route for the HTTP ceiling. Runs in its own process
 * so its peak RSS is its own.
 */
async function main(): Promise<void> {
  const config = loadConfig(process.env);
  // BENCH_NOW: the clock starts there and runs at real speed (the outbound
  // rows need a time inside the calling windows, whatever the hour of the run).
  const offset = process.env.BENCH_NOW ? Date.parse(process.env.BENCH_NOW) - Date.now() : 0;
  const clock: Clock = offset ? { now: () => Date.now() + offset } : systemClock;
  const runtime = await openRuntime(config, createLogger(config.logLevel), clock);
  const app = await buildApp(runtime);
  app.get('/__bench/noop', async () => ({ ok: true }));
  await app.ready();
  await app.listen({ host: '127.0.0.1', port: 0 });
  // Rows that need the dispatch and webhook workers ask for them, as `npm start` runs them.
  if (process.env.BENCH_WORKERS === '1') {
    runtime.worker?.start();
    runtime.webhookWorker?.start();
  }

  const usage = async (): Promise<Usage> => {
    const counted = await runtime.metrics.dniSessions.get();
    const outcomes: Record<string, number> = {};
    for (const v of counted.values) {
      const k = String(v.labels.outcome);
      outcomes[k] = (outcomes[k] ?? 0) + v.value;
    }
    // Batches and the requests in them (dni_batch_size): their ratio is the mean batch size.
    for (const v of (await runtime.metrics.dniBatchSize.get()).values) {
      if (v.metricName === 'dni_batch_size_count') outcomes.batches = v.value;
      if (v.metricName === 'dni_batch_size_sum') outcomes.batched = v.value;
    }
    return { ...ownUsage(), outcomes };
  };
  process.on('message', (m: Message) => {
    if (commonMessage(m, (r) => process.send?.(r))) return;
    if (m.type === 'usage') {
      void usage().then((u) => process.send?.({ type: 'usage', ...u }));
    } else if (m.type === 'stop') {
      void (async () => {
        await app.close();
        await runtime.close();
        const u = await usage();
        process.send?.({ type: 'stopped', ...u }, () => process.exit(0));
      })();
    }
  });
  process.send?.({
    type: 'ready',
    port: (app.server.address() as AddressInfo).port,
    pid: process.pid,
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`server child failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
