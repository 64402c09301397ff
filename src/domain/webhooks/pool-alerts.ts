import type { Logger } from 'pino';
import type { SessionOutcome } from '../vocabulary.js';
import type { PoolAlertRepos } from './ports.js';

/** What the alert reads of an opened DNI session. */
export interface OpenedSessionFacts {
  campaignId: string;
  trackingNumber: string;
  outcome: SessionOutcome;
}

/**
 * pool.exhausted, written from Node just after dni_open_session committed a shared or overflow
 * session, not in that transaction: the allocation is one SQL function call (its lock order is
 * tuned for the hot path and owned elsewhere), so the event is its own statement right after.
 * A crash between the two loses at most this one alert; the next exhausted request writes it.
 * At most one per campaign per interval: a per-process memo spares the database during a run
 * of exhausted requests, and a gate row per campaign makes the limit hold across processes.
 */
export class PoolAlerts {
  private readonly lastMs = new Map<string, number>();

  constructor(
    private readonly repos: PoolAlertRepos,
    private readonly intervalMs: number,
    private readonly logger: Logger,
  ) {}

  async exhausted(
    orgId: string,
    campaignCode: string,
    s: OpenedSessionFacts,
    now: Date,
  ): Promise<void> {
    if (s.outcome !== 'shared' && s.outcome !== 'overflow') return;
    const last = this.lastMs.get(s.campaignId);
    if (last !== undefined && now.getTime() - last < this.intervalMs) return;
    this.lastMs.set(s.campaignId, now.getTime());
    try {
      const poolSize = await this.repos.events.poolSizeOf(this.repos.db, s.campaignId);
      await this.repos.events.emitPoolExhausted(
        this.repos.db,
        {
          orgId,
          campaignId: s.campaignId,
          campaignCode,
          fallback: s.outcome,
          trackingNumber: s.trackingNumber,
          poolSize,
          intervalMs: this.intervalMs,
        },
        now,
      );
    } catch (err) {
      // The session is committed and answered either way; the alert is not worth a 503.
      this.lastMs.delete(s.campaignId);
      this.logger.warn({ err, campaign_id: s.campaignId }, 'pool.exhausted event not written');
    }
  }
}
