import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { RetentionConfig } from '../config.js';
import type { Clock } from '../deps.js';
import type { BatchResult, RetentionRepos } from '../domain/retention/ports.js';
import { LeasedWorker } from './leased-worker.js';

const DAY_MS = 86_400_000;
const LEASE = 'retention';
/**
 * A full rescan now and then picks up rows the cursor passed while they were still kept
 * (sessions still live, webhook events that still had deliveries).
 */
const CURSOR_RESET_MS = 7 * DAY_MS;

export interface RetentionDeps {
  repos: RetentionRepos;
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
// Long on purpose: a factory whose body is the closures it returns (lease, cursor, drain, round),
// sharing the lease holder and the injected clock.
export function createRetention(config: RetentionConfig, deps: RetentionDeps): RetentionJob {
  const holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  const leaseMs = Math.max(3 * config.intervalMs, 30_000);
  const { clock } = deps;
  const repo = deps.repos.retention;
  const db = deps.repos.db;
  const logger = deps.logger.child({ component: 'retention' });

  const lead = async (): Promise<boolean> => {
    const now = clock.now();
    return repo.takeLease(db, LEASE, holder, new Date(now + leaseMs), new Date(now));
  };

  const cursorOf = async (rule: string): Promise<string> => {
    const now = clock.now();
    const row = await repo.readCursor(db, rule);
    if (row && now - row.resetAt.getTime() < CURSOR_RESET_MS) return row.after;
    await repo.resetCursor(db, rule, new Date(now));
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

  /** One round's work, by the lease holder. */
  const round = async (): Promise<RoundReport> => {
    const nowMs = clock.now();
    const batch = config.batchSize;
    const report: RoundReport = {};
    report.outbound_idempotency = (
      await drain(() => repo.pruneIdempotency(db, { nowMs, batch }))
    ).deleted;
    const days = config.dispatchJobDays;
    report.dispatch_jobs = (
      await drain(() => repo.pruneDispatchJobs(db, { nowMs, days, batch }))
    ).deleted;
    report.simulated_carrier_messages = (
      await drain(() => repo.pruneSimulatedMessages(db, { nowMs, days, batch }))
    ).deleted;
    const sessions = await drain(
      (after) => repo.pruneSessions(db, { nowMs, days: config.sessionDays, batch, after }),
      await cursorOf('dni_sessions'),
    );
    await repo.saveCursor(db, 'dni_sessions', sessions.cursor);
    report.dni_sessions = sessions.deleted;
    // Deliveries go with their attempts, and an event with its last delivery; then the events
    // whose deliveries went with their endpoint.
    const webhookDays = config.webhookDays;
    let attempts = 0;
    let eventsWithLast = 0;
    report.webhook_deliveries = (
      await drain(async () => {
        const r = await repo.pruneWebhookDeliveries(db, { nowMs, days: webhookDays, batch });
        attempts += r.attempts;
        eventsWithLast += r.events;
        return r;
      })
    ).deleted;
    report.webhook_attempts = attempts;
    const events = await drain(
      (after) => repo.pruneWebhookEvents(db, { nowMs, days: webhookDays, batch, after }),
      await cursorOf('webhook_events'),
    );
    await repo.saveCursor(db, 'webhook_events', events.cursor);
    report.webhook_events = eventsWithLast + events.deleted;
    report.report_deltas_folded = (await drain(() => repo.foldReportDeltas(db, { batch }))).deleted;
    if (report.report_deltas_folded > 0) await repo.vacuumReportDeltas(db);
    if (Object.values(report).some((n) => n > 0))
      logger.info({ deleted: report }, 'retention round');
    return report;
  };

  // Claiming is leading: a round to run while this process holds the lease, none otherwise.
  const loop = new LeasedWorker<'round'>(
    {
      claim: async () => ((await lead()) ? ['round'] : []),
      run: async () => {
        await round();
      },
    },
    {
      concurrency: 1,
      pollMs: config.intervalMs,
      mode: 'round',
      firstRoundAfterMs: config.intervalMs,
      unref: true,
      onError: (err) => logger.warn({ err }, 'retention round failed; retrying next round'),
    },
  );
  if (config.enabled) loop.start();

  return {
    holder,
    runOnce: async () => ((await lead()) ? round() : null),
    async stop() {
      await loop.stop();
      // Hand the lease over at once instead of after it expires.
      await repo.releaseLease(db, LEASE, holder).catch(() => {});
    },
  };
}
