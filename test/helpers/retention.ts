import pino from 'pino';
import type { RetentionConfig } from '../../src/config.js';
import type { Store } from '../../src/store/db.js';
import { createRepositories } from '../../src/store/repos/index.js';
import { createRetention } from '../../src/workers/retention.js';
import type { Harness } from './harness.js';

/**
 * The retention job on the harness's clock and store (or another process's
 * `store`); rounds run when the test says.
 */
export function testRetention(
  h: Harness,
  o: Partial<RetentionConfig> = {},
  store: Store = h.store,
) {
  const config: RetentionConfig = {
    enabled: false,
    intervalMs: 60_000,
    batchSize: 7, // several batches per round, so batching and cursors are exercised
    maxBatches: 1000,
    sessionDays: 90,
    dispatchJobDays: 30,
    webhookDays: 30,
    ...o,
  };
  return createRetention(config, {
    repos: store === h.store ? h.deps.repos : createRepositories(store),
    clock: h.clock,
    logger: pino({ level: 'silent' }),
  });
}

/** Rows of `table` matching `where`, read directly. */
export async function countRows(
  h: Harness,
  table: string,
  where = 'true',
  params: unknown[] = [],
): Promise<number> {
  const [r] = await h.store.query<{ n: number }>(
    `select count(*)::int as n from ${table} where ${where}`,
    params,
  );
  return r!.n;
}
