import { and, desc, eq, isNotNull, lte } from 'drizzle-orm';
import type { InboundCall, RecordedCall } from '../../domain/carrier-inbound/ports.js';
import { attributeCall, holdOf } from '../../domain/dni/attribution.js';
import { newId } from '../../domain/ids.js';
import type { Executor } from '../db.js';
import {
  calls,
  campaigns,
  dniSessions,
  numberOwners,
  ownedNumber,
  trackingNumbers,
} from '../schema/index.js';
import { writeAudit } from './audit.js';
import { emitCallReceived } from './webhook-emitters.js';

export type { InboundCall, RecordedCall };

// Enough to find the live holders of a shared number and its last holder.
const SESSIONS_SCANNED = 50;

type CalledNumber = NonNullable<Awaited<ReturnType<typeof calledNumber>>>;

/** The tracking number called, with its campaign; undefined when no campaign owns it. */
async function calledNumber(ex: Executor, e164: string) {
  const [number] = await ex
    .select({
      orgId: trackingNumbers.orgId,
      campaignId: trackingNumbers.campaignId,
      code: campaigns.code,
      forwardTo: campaigns.forwardTo,
    })
    // The number's organization first (number_owners), then the number by organization and
    // number: a read a PostgreSQL sharded by organization sends to one node (docs/scaling.md).
    .from(numberOwners)
    .innerJoin(trackingNumbers, ownedNumber())
    .innerJoin(campaigns, eq(campaigns.id, trackingNumbers.campaignId))
    .where(eq(numberOwners.e164, e164));
  return number;
}

/** The sessions that held the number when the call began, and the caller's last attributed call. */
async function attributionOf(ex: Executor, number: CalledNumber, call: InboundCall) {
  const held = await ex
    .select({
      id: dniSessions.id,
      createdAt: dniSessions.createdAt,
      expiresAt: dniSessions.expiresAt,
    })
    .from(dniSessions)
    .where(
      and(
        eq(dniSessions.orgId, number.orgId),
        eq(dniSessions.trackingNumber, call.to),
        lte(dniSessions.createdAt, call.startedAt),
      ),
    )
    .orderBy(desc(dniSessions.createdAt))
    .limit(SESSIONS_SCANNED);
  const [repeat] = await ex
    .select({ sessionId: calls.dniSessionId })
    .from(calls)
    .where(
      and(
        eq(calls.campaignId, number.campaignId),
        eq(calls.fromNumber, call.from),
        isNotNull(calls.dniSessionId),
        lte(calls.startedAt, call.startedAt),
      ),
    )
    .orderBy(desc(calls.startedAt))
    .limit(1);
  const attribution = attributeCall(call.startedAt, held, repeat?.sessionId ?? null);
  return { attribution, hold: holdOf(attribution, held) };
}

/**
 * Attributes an inbound call to the session that held the number (contract §3)
 * and stores it. `orgId` restricts the lookup to one organization (admin API);
 * null accepts any organization's number (a carrier webhook).
 * Null: no campaign answers for that number.
 */
export async function recordInboundCall(
  ex: Executor,
  orgId: string | null,
  call: InboundCall,
  actor: string,
  requestId: string | null,
  now: Date,
): Promise<RecordedCall | null> {
  const number = await calledNumber(ex, call.to);
  if (!number || (orgId !== null && number.orgId !== orgId)) return null;
  const { attribution, hold } = await attributionOf(ex, number, call);

  const callId = newId('call', now.getTime());
  await ex.insert(calls).values({
    id: callId,
    orgId: number.orgId,
    campaignId: number.campaignId,
    dniSessionId: attribution.sessionId,
    trackingNumber: call.to,
    fromNumber: call.from,
    startedAt: call.startedAt,
    attribution: attribution.kind,
    ambiguous: attribution.ambiguous,
    sessionCreatedAt: hold?.createdAt ?? null,
    sessionExpiresAt: hold?.expiresAt ?? null,
    carrier: call.carrier?.name ?? null,
    carrierCallSid: call.carrier?.callSid ?? null,
    status: call.carrier?.status ?? null,
  });
  await writeAudit(ex, {
    orgId: number.orgId,
    actor,
    action: 'call.recorded',
    subjectType: 'call',
    subjectId: callId,
    detail: {
      campaign_code: number.code,
      attribution: attribution.kind,
      dni_session_id: attribution.sessionId,
      ...(call.carrier
        ? { carrier: call.carrier.name, carrier_call_sid: call.carrier.callSid }
        : {}),
    },
    requestId,
    at: now,
  });
  await emitCallReceived(
    ex,
    {
      callId,
      orgId: number.orgId,
      campaignId: number.campaignId,
      campaignCode: number.code,
      trackingNumber: call.to,
      caller: call.from,
      startedAt: call.startedAt,
      attribution,
      carrier: call.carrier ? { name: call.carrier.name, callSid: call.carrier.callSid } : null,
    },
    now,
  );
  return {
    callId,
    orgId: number.orgId,
    campaignId: number.campaignId,
    campaignCode: number.code,
    forwardTo: number.forwardTo,
    attribution,
  };
}
