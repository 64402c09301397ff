import { and, eq, lte, or } from 'drizzle-orm';
import type { IdempotencyScope, Reservation } from '../../domain/outbound/ports.js';
import type { Db } from '../db.js';
import { outboundIdempotency as idem } from '../schema/outbound.js';

export type { IdempotencyScope, Reservation };

const matches = (s: IdempotencyScope) =>
  and(eq(idem.orgId, s.orgId), eq(idem.campaignId, s.campaignId), eq(idem.key, s.key));

/**
 * Claims a key for one request in a short transaction of its own, committed before the decision
 * runs, so a concurrent duplicate finds it pending (409) instead of deciding twice. An expired
 * record, or a pending one older than `staleMs` (its request died before committing anything,
 * since completion commits with the touch), is replaced.
 */
export async function reserveKey(
  db: Db,
  scope: IdempotencyScope,
  claim: { hash: string; owner: string; nowMs: number; ttlMs: number; staleMs: number },
): Promise<Reservation> {
  const now = new Date(claim.nowMs);
  return db.transaction(async (tx) => {
    await tx
      .delete(idem)
      .where(
        and(
          matches(scope),
          or(
            lte(idem.expiresAt, now),
            and(
              eq(idem.state, 'pending'),
              lte(idem.startedAt, new Date(claim.nowMs - claim.staleMs)),
            ),
          ),
        ),
      );
    const inserted = await tx
      .insert(idem)
      .values({
        ...scope,
        requestHash: claim.hash,
        state: 'pending',
        owner: claim.owner,
        startedAt: now,
        expiresAt: new Date(claim.nowMs + claim.ttlMs),
      })
      .onConflictDoNothing()
      .returning({ owner: idem.owner });
    if (inserted.length > 0) return { kind: 'reserved' };
    const [row] = await tx.select().from(idem).where(matches(scope));
    // Vanished between the insert and the select: only a concurrent purge does that; retry.
    if (!row) return { kind: 'in_flight' };
    if (row.requestHash !== claim.hash) return { kind: 'mismatch' };
    if (row.state !== 'done' || row.statusCode === null || row.response === null) {
      return { kind: 'in_flight' };
    }
    return { kind: 'done', statusCode: row.statusCode, response: row.response };
  });
}

/** After a failed decision, so a retry need not wait for the pending record to go stale. */
export async function releaseKey(db: Db, scope: IdempotencyScope, owner: string) {
  await db
    .delete(idem)
    .where(and(matches(scope), eq(idem.owner, owner), eq(idem.state, 'pending')));
}
