import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { DispatchPayload } from '../../domain/dispatch/payload.js';
import type {
  Claim,
  ClaimedJob,
  DispatchRepository,
  Outcome,
} from '../../domain/dispatch/ports.js';
import { newId } from '../../domain/ids.js';
import type { Db } from '../db.js';
import { carrierAttempts, dispatchJobs, outboundTouches } from '../schema/outbound.js';
import { RELEASED, stillLeased } from './lease.js';
import { emitTouchFinal } from './webhook-emitters.js';

export type { Claim, ClaimedJob, Outcome };

/**
 * Leases due jobs to one worker. SKIP LOCKED lets several workers claim at once without waiting
 * on each other; the lease (visibility timeout) hands a job to another worker if this one dies.
 * Each claim opens an attempt row before the carrier is called, so a crash leaves a trace.
 */
export async function claimJobs(db: Db, c: Claim): Promise<ClaimedJob[]> {
  const now = new Date(c.nowMs);
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: dispatchJobs.id })
      .from(dispatchJobs)
      .where(
        and(
          eq(dispatchJobs.state, 'pending'),
          lte(dispatchJobs.runAt, now),
          or(isNull(dispatchJobs.leaseUntil), lte(dispatchJobs.leaseUntil, now)),
        ),
      )
      .orderBy(asc(dispatchJobs.runAt), asc(dispatchJobs.id))
      .limit(c.limit)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    const ids = due.map((d) => d.id);
    const jobs = await tx
      .update(dispatchJobs)
      .set({
        leaseUntil: new Date(c.nowMs + c.leaseMs),
        leasedBy: c.worker,
        attempts: sql`${dispatchJobs.attempts} + 1`,
        updatedAt: now,
      })
      .where(inArray(dispatchJobs.id, ids))
      .returning();
    const orphaned = await tx
      .update(carrierAttempts)
      .set({ outcome: 'unknown', finishedAt: now, error: 'the worker lost its lease mid-attempt' })
      .where(and(inArray(carrierAttempts.jobId, ids), eq(carrierAttempts.outcome, 'started')))
      .returning({ jobId: carrierAttempts.jobId });
    const unknown = new Set(orphaned.map((o) => o.jobId));
    const claimed = jobs.map(
      (j): ClaimedJob => ({
        jobId: j.id,
        touchId: j.touchId,
        orgId: j.orgId,
        attempt: j.attempts,
        payload: j.payload as DispatchPayload,
        attemptId: newId('att', c.nowMs),
        priorUnknown: unknown.has(j.id),
      }),
    );
    await tx.insert(carrierAttempts).values(
      claimed.map((j) => ({
        id: j.attemptId,
        jobId: j.jobId,
        touchId: j.touchId,
        orgId: j.orgId,
        attempt: j.attempt,
        carrier: c.carrier,
        worker: c.worker,
        outcome: 'started',
        startedAt: now,
      })),
    );
    return claimed;
  });
}

/**
 * Records an attempt and moves the job on. Fenced by the lease: if another worker has claimed
 * the job since (this one overran its lease), only the attempt row is written; false then.
 */
export async function recordOutcome(
  db: Db,
  job: ClaimedJob,
  worker: string,
  carrier: string,
  o: Outcome,
  nowMs: number,
): Promise<boolean> {
  const now = new Date(nowMs);
  return db.transaction(async (tx) => {
    await tx
      .update(carrierAttempts)
      .set({ outcome: o.attempt, carrierId: o.carrierId, error: o.error, finishedAt: now })
      .where(eq(carrierAttempts.id, job.attemptId));
    const moved = await tx
      .update(dispatchJobs)
      .set({
        state:
          o.next.state === 'pending' ? 'pending' : o.next.touch === 'delivered' ? 'done' : 'dead',
        ...(o.next.state === 'pending' ? { runAt: new Date(o.next.retryAtMs) } : {}),
        ...RELEASED,
        lastError: o.error,
        updatedAt: now,
      })
      .where(stillLeased(dispatchJobs, job.jobId, worker, job.attempt))
      .returning({ id: dispatchJobs.id });
    if (moved.length === 0) return false;
    const [t] = await tx
      .update(outboundTouches)
      .set({
        attempts: job.attempt,
        carrier,
        lastError: o.error,
        ...(o.carrierId
          ? { carrierIds: sql`array_append(${outboundTouches.carrierIds}, ${o.carrierId}::text)` }
          : {}),
        ...(o.next.state === 'final' ? { dispatchStatus: o.next.touch, finalizedAt: now } : {}),
      })
      .where(eq(outboundTouches.id, job.touchId))
      .returning();
    // The final state and its webhook event commit together (touch.delivered / touch.failed).
    if (t && o.next.state === 'final') {
      await emitTouchFinal(
        tx,
        {
          touchId: t.id,
          orgId: t.orgId,
          campaignId: t.campaignId,
          toE164: t.toE164,
          channel: t.channel,
          consentBasis: t.consentBasis,
          variant: t.variant,
          cadenceStep: t.cadenceStep,
        },
        {
          dispatchStatus: o.next.touch,
          attempts: t.attempts,
          carrier,
          carrierIds: t.carrierIds,
          lastError: t.lastError,
        },
        now,
      );
    }
    return true;
  });
}

/** `repos.dispatch`. */
export function createDispatchRepository(): DispatchRepository {
  return { claimJobs, recordOutcome };
}
