import { and, eq, gt, sql } from 'drizzle-orm';
import type { PlacedTouch } from '../../domain/outbound/compliance/index.js';
import type { Executor, Tx } from '../db.js';
import { campaigns } from '../schema.js';
import { dispatchJobs, outboundTouches } from '../schema-outbound.js';

export type TouchRow = typeof outboundTouches.$inferInsert;
export type JobRow = typeof dispatchJobs.$inferInsert;

export async function findCampaign(
  ex: Executor,
  orgId: string,
  code: string,
): Promise<{ id: string; config: Record<string, unknown> } | null> {
  const [c] = await ex
    .select({ id: campaigns.id, config: campaigns.config })
    .from(campaigns)
    .where(and(eq(campaigns.orgId, orgId), eq(campaigns.code, code)));
  return c ? { id: c.id, config: (c.config ?? {}) as Record<string, unknown> } : null;
}

/**
 * Serialises the decisions of one (organization, contact) until the transaction ends, so the
 * frequency count a decision reads cannot change before its own touch is written.
 */
export async function lockContact(tx: Tx, orgId: string, e164: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`outbound\u001f${orgId}\u001f${e164}`}::text, 0))`,
  );
}

/** Placed touches of the contact decided after `since` (later ones included: they were placed). */
export async function placedHistory(
  ex: Executor,
  orgId: string,
  e164: string,
  since: Date,
): Promise<PlacedTouch[]> {
  const rows = await ex
    .select({ at: outboundTouches.decidedAt, channel: outboundTouches.channel })
    .from(outboundTouches)
    .where(
      and(
        eq(outboundTouches.orgId, orgId),
        eq(outboundTouches.toE164, e164),
        eq(outboundTouches.placed, true),
        gt(outboundTouches.decidedAt, since),
      ),
    );
  return rows.map((r) => ({ at: r.at, channel: r.channel as PlacedTouch['channel'] }));
}

/** The touch and, when placed, its dispatch job: callers pass one transaction for both. */
export async function insertTouch(tx: Tx, touch: TouchRow, job: JobRow | null): Promise<void> {
  await tx.insert(outboundTouches).values(touch);
  if (job) await tx.insert(dispatchJobs).values(job);
}

export async function getTouch(ex: Executor, orgId: string, touchId: string) {
  const [t] = await ex
    .select()
    .from(outboundTouches)
    .where(and(eq(outboundTouches.orgId, orgId), eq(outboundTouches.id, touchId)));
  return t ?? null;
}
