import { and, eq, sql } from 'drizzle-orm';
import type {
  CallStatusChange,
  CarrierCall,
  InboundCallRepository,
} from '../../domain/carrier-inbound/ports.js';
import type { Fallback } from '../../domain/routing/vocabulary.js';
import type { Executor, Tx } from '../db.js';
import { first } from '../rows.js';
import { calls, campaigns } from '../schema/index.js';
import { recordInboundCall } from './calls.js';

export type { CallStatusChange, CarrierCall };

/**
 * Serialises webhooks for one carrier call until the transaction ends, so a
 * retried voice webhook finds the call its first delivery stored.
 */
export async function lockCarrierCall(tx: Tx, carrier: string, callSid: string): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`${carrier}:${callSid}`}, 0))`,
  );
}

export async function findCarrierCall(
  ex: Executor,
  carrier: string,
  callSid: string,
): Promise<CarrierCall | null> {
  return first(
    ex
      .select({
        callId: calls.id,
        orgId: calls.orgId,
        campaignId: calls.campaignId,
        campaignCode: campaigns.code,
        forwardTo: campaigns.forwardTo,
        status: calls.status,
        fromNumber: calls.fromNumber,
        startedAt: calls.startedAt,
        buyerId: calls.buyerId,
        fallback: sql<Fallback | null>`${calls.fallback}`,
      })
      .from(calls)
      .innerJoin(campaigns, eq(campaigns.id, calls.campaignId))
      .where(and(eq(calls.carrier, carrier), eq(calls.carrierCallSid, callSid))),
  );
}

export async function setCarrierCallStatus(
  tx: Tx,
  callId: string,
  change: CallStatusChange,
): Promise<void> {
  await tx
    .update(calls)
    .set({
      status: change.status,
      ...(change.endedAt
        ? { endedAt: change.endedAt, durationSeconds: change.durationSeconds }
        : {}),
    })
    .where(eq(calls.id, callId));
}

/** `repos.calls`: a carrier's calls and the attribution of every inbound call. */
export function createInboundCallRepository(): InboundCallRepository {
  return { lockCarrierCall, findCarrierCall, setCarrierCallStatus, recordInboundCall };
}
