import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { RetentionConfig } from '../config.js';
import type { Clock } from '../deps.js';
import type { Store } from '../store/db.js';
import {
  type BatchResult,
  DAY_MS,
  foldReportDeltas,
  pruneDispatchJobs,
  pruneIdempotency,
  pruneSessions,
  pruneSimulatedMessages,
  pruneWebhookDeliveries,
  pruneWebhookEvents,
} from './rules.js';

const LEASE = 'retention';
/**
 * A full rescan now and then picks up rows the cursor passed while they were still kept
 * (sessions still live, webhook events that still had deliveries).
 */
const CURSOR_RESET_MS = 7 * DAY_MS;

export interface RetentionDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
}

export type RoundReport = Record<string, number>;

export interface RetentionJob {
  readonly holder: string;
  /** One round now: null when another process holds the lease. */
  runOnce(): Promise<RoundReport | null>;
  stop(): Promise<void>;
}

/**
 * The retention job. Several API processes may run it; the one holding the
 * lease row (renewed each round, expiring after three intervals) does the
 * work, so a crashed leader is replaced without anyone's help. A lease row
 * rather than pg_try_advisory_lock: it works on both stores through the same
 * query interface, needs no connection pinned out of the pool, and follows the
 * injected clock in tests.
 */
export function createRetention(config: RetentionConfig, deps: RetentionDeps): RetentionJob {
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const leaseMs = Math.max(3 * config.intervalMs, 30_000);
  const { store, clock } = deps;
  const logger = deps.logger.child({ component: 'retention' });

  const lead = async (): Promise<boolean> => {
    const now = clock.now();
    const rows = await store.query<{ holder: string }>(
      `insert into retention_leases (name, holder, until) values ($1, $2, $3)
       on conflict (name) do update set holder = excluded.holder, until = excluded.until
        where retention_leases.until < $4 or retention_leases.holder = excluded.holder
       returning holder`,
      [LEASE, holder, new Date(now + leaseMs), new Date(now)],
    );
    return rows.length > 0;
  };

  const cursorOf = async (rule: string): Promise<string> => {
    const now = clock.now();
    const [row] = await store.query<{ after: string; reset_at: Date }>(
      'select after, reset_at from retention_cursors where rule = $1',
      [rule],
    );
    if (row && now - new Date(row.reset_at).getTime() < CURSOR_RESET_MS) return row.after;
    await store.query(
      `insert into retention_cursors (rule, after, reset_at) values ($1, '', $2)
       on conflict (rule) do update set after = '', reset_at = excluded.reset_at`,
      [rule, new Date(now)],
    );
    return '';
  };

  /** Batches of one rule until it is done or has had its share of this round. */
  const drain = async (batch: (after: string) => Promise<BatchResult>, start = '') => {
    let deleted = 0;
    let cursor = start;
    for (let i = 0; i < config.maxBatches; i++) {
      const r = await batch(cursor);
      deleted += r.deleted;
      cursor = r.cursor;
      if (r.done) break;
      // Let requests queued behind this batch run (the embedded store shares the event loop).
      await new Promise((resolve) => setImmediate(resolve));
    }
    return { deleted, cursor };
  };

  const runOnce = async (): Promise<RoundReport | null> => {
    if (!(await lead())) return null;
    const nowMs = clock.now();
    const batch = config.batchSize;
    const report: RoundReport = {};
    report.outbound_idempotency = (
      await drain(() => pruneIdempotency(store, { nowMs, batch }))
    ).deleted;
    const days = config.dispatchJobDays;
    report.dispatch_jobs = (
      await drain(() => pruneDispatchJobs(store, { nowMs, days, batch }))
    ).deleted;
    report.simulated_carrier_messages = (
      await drain(() => pruneSimulatedMessages(store, { nowMs, days, batch }))
    ).deleted;
    const sessions = await drain(
      (after) => pruneSessions(store, { nowMs, days: config.sessionDays, batch, after }),
      await cursorOf('dni_sessions'),
    );
    await store.query('update retention_cursors set after = $2 where rule = $1', [
      'dni_sessions',
      sessions.cursor,
    ]);
    report.dni_sessions = sessions.deleted;
    // Deliveries go with their attempts, and an event with its last delivery; then the events
    // whose deliveries went with their endpoint.
    const webhookDays = config.webhookDays;
    let attempts = 0;
    let eventsWithLast = 0;
    report.webhook_deliveries = (
      await drain(async () => {
        const r = await pruneWebhookDeliveries(store, { nowMs, days: webhookDays, batch });
        attempts += r.attempts;
        eventsWithLast += r.events;
        return r;
      })
    ).deleted;
    report.webhook_attempts = attempts;
    const events = await drain(
      (after) => pruneWebhookEvents(store, { nowMs, days: webhookDays, batch, after }),
      await cursorOf('webhook_events'),
    );
    await store.query('update retention_cursors set after = $2 where rule = $1', [
      'webhook_events',
      events.cursor,
    ]);
    report.webhook_events = eventsWithLast + events.deleted;
    report.report_deltas_folded = (await drain(() => foldReportDeltas(store, { batch }))).deleted;
    if (Object.values(report).some((n) => n > 0))
      logger.info({ deleted: report }, 'retention round');
    return report;
  };

  let timer: NodeJS.Timeout | null = null;
  let round: Promise<unknown> | null = null;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      round = runOnce()
        .catch((err: unknown) =>
          logger.warn({ err }, 'retention round failed; retrying next round'),
        )
        .finally(() => {
          round = null;
          schedule();
        });
    }, config.intervalMs);
    timer.unref();
  };
  if (config.enabled) schedule();

  return {
    holder,
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await round;
      // Hand the lease over at once instead of after it expires.
      await store
        .query('update retention_leases set until = $3 where name = $1 and holder = $2', [
          LEASE,
          holder,
          new Date(0),
        ])
        .catch(() => {});
    },
  };
}
