import { eq } from 'drizzle-orm';
import type {
  CallStatusChange,
  CarrierCall,
  InboundCallRepository,
} from '../../domain/carrier-inbound/ports.js';
import type { Fallback } from '../../domain/routing/vocabulary.js';
import type { Tx } from '../db.js';
import { hotRows } from '../rows.js';
import { calls } from '../schema/index.js';
import { recordInboundCalls } from './calls.js';

export type { CallStatusChange, CarrierCall };

interface LockedCall {
  call_sid: string;
  call_id: string;
  org_id: string;
  campaign_id: string;
  campaign_code: string;
  forward_to: string | null;
  status: string | null;
  from_number: string;
  started_at: string | Date;
  buyer_id: string | null;
  fallback: Fallback | null;
}

/**
 * Serialises webhooks for these carrier calls until the transaction ends, so a retried voice
 * webhook finds the call its first delivery stored, and reads those calls (absent: none yet)
 * in the same round trip (src/store/sql/carrier_calls_locked.sql).
 */
export async function lockCarrierCalls(
  tx: Tx,
  carrier: string,
  callSids: readonly string[],
): Promise<Map<string, CarrierCall>> {
  const rows = await hotRows<LockedCall>(tx, 'select * from carrier_calls_locked($1, $2::text[])', [
    carrier,
    callSids,
  ]);
  return new Map(
    rows.map((c) => [
      c.call_sid,
      {
        callId: c.call_id,
        orgId: c.org_id,
        campaignId: c.campaign_id,
        campaignCode: c.campaign_code,
        forwardTo: c.forward_to,
        status: c.status,
        fromNumber: c.from_number,
        startedAt: new Date(c.started_at),
        buyerId: c.buyer_id,
        fallback: c.fallback,
      },
    ]),
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
  return { lockCarrierCalls, setCarrierCallStatus, recordInboundCalls };
}
