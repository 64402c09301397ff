import type {
  CallStatusChange,
  CarrierCall,
  GatheredCalls,
  InboundCallRepository,
  InboundCallRequest,
} from '../../domain/carrier-inbound/ports.js';
import type { RoutingPlan } from '../../domain/routing/ports.js';
import type { PricedOffer } from '../../domain/routing/types.js';
import type { Fallback, OfferOutcome } from '../../domain/routing/vocabulary.js';
import type { Tx } from '../db.js';
import { hotRows, openingRowSets, openingRows } from '../rows.js';
import { AUDIT_COLUMNS, type AuditEntry, auditPlaceholders, auditValues } from './audit.js';
import {
  type GatheredNumber,
  gatheredByCallSid,
  gatheredStatement,
  recordInboundCalls,
  recordRoutedCalls,
} from './calls.js';
import { type CandidateRow, plansOf, plansStatement } from './routing.js';

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
  offers: OfferJson[];
  events: string[];
  triggers: string[];
}

/** An offer as carrier_calls_locked gives it, with its buyer's payout rules. */
interface OfferJson {
  id: string;
  seq: number;
  buyer_id: string;
  offered_at: string;
  ended_at: string | null;
  outcome: OfferOutcome | null;
  duration_seconds: number | null;
  hour_start: string;
  day_start: string;
  month_start: string;
  payout_amount: string | null;
  payout_min_duration_seconds: number | null;
  payout_duplicate_window_days: number | null;
}

const offerOf = (orgId: string, callId: string, o: OfferJson): PricedOffer => ({
  id: o.id,
  orgId,
  callId,
  seq: o.seq,
  buyerId: o.buyer_id,
  offeredAt: new Date(o.offered_at),
  endedAt: o.ended_at === null ? null : new Date(o.ended_at),
  outcome: o.outcome,
  durationSeconds: o.duration_seconds,
  hourStart: new Date(o.hour_start),
  dayStart: new Date(o.day_start),
  monthStart: new Date(o.month_start),
  payout:
    o.payout_amount === null
      ? null
      : {
          amount: o.payout_amount,
          min_duration_seconds: o.payout_min_duration_seconds ?? 0,
          duplicate_window_days: o.payout_duplicate_window_days ?? 0,
        },
});

/** Takes the calls' locks and reads them (src/store/sql/carrier_calls_locked.sql). */
const LOCKED = 'select * from carrier_calls_locked($1, $2::text[])';

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
  // The transaction's first statement: on PostgreSQL it goes with the `begin` (openingRows).
  return carrierCallsOf(await openingRows<LockedCall>(tx, LOCKED, [carrier, callSids]));
}

/**
 * lockCarrierCalls, then what recording the calls reads (calls_gathered): both with the `begin`
 * on PostgreSQL, one round trip (openingRowSets). The read runs after the locks are granted, as
 * a read of its own would.
 */
export async function lockRingingCalls(
  tx: Tx,
  carrier: string,
  requests: readonly InboundCallRequest[],
): Promise<{ known: Map<string, CarrierCall>; gathered: GatheredCalls }> {
  const [locked, gathered] = await openingRowSets(tx, [
    { text: LOCKED, params: [carrier, requests.map((r) => r.call.carrier?.callSid ?? '')] },
    gatheredStatement(requests),
  ]);
  return {
    known: carrierCallsOf(locked as LockedCall[]),
    gathered: gatheredByCallSid(requests, gathered as GatheredNumber[]),
  };
}

/**
 * lockCarrierCalls for one call, then its campaign's routing plan (routing.ts, `plans`): both
 * with the `begin` on PostgreSQL, one round trip (openingRowSets). The call's organization and
 * campaign are known from an earlier transaction of the same webhook, and never change.
 */
export async function lockRoutedCall(
  tx: Tx,
  carrier: string,
  callSid: string,
  call: { orgId: string; campaignId: string },
): Promise<{ known: CarrierCall | null; plans: Map<string, RoutingPlan> }> {
  const [locked, plans] = await openingRowSets(tx, [
    { text: LOCKED, params: [carrier, [callSid]] },
    plansStatement([call]),
  ]);
  return {
    known: carrierCallsOf(locked as LockedCall[]).get(callSid) ?? null,
    plans: plansOf(plans as CandidateRow[]),
  };
}

function carrierCallsOf(rows: readonly LockedCall[]): Map<string, CarrierCall> {
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
        offers: c.offers.map((o) => offerOf(c.org_id, c.call_id, o)),
        events: new Set(c.events),
        conversionTriggers: new Set(c.triggers),
      },
    ]),
  );
}

/** The status and, once final, the end and duration; then its audit line: one statement. */
const SET_STATUS = `
  with changed as (
    update calls
       set status = $2,
           ended_at = case when $3::timestamptz is null then ended_at else $3::timestamptz end,
           duration_seconds = case when $3::timestamptz is null then duration_seconds else $4::int end
     where id = $1
    returning id)
  insert into audit_log (${AUDIT_COLUMNS}) select ${auditPlaceholders(5)} from changed`;

export async function setCarrierCallStatus(
  tx: Tx,
  callId: string,
  change: CallStatusChange,
  audit: AuditEntry,
): Promise<void> {
  await hotRows(tx, SET_STATUS, [
    callId,
    change.status,
    change.endedAt,
    change.durationSeconds,
    ...auditValues(audit),
  ]);
}

/** `repos.calls`: a carrier's calls and the attribution of every inbound call. */
export function createInboundCallRepository(): InboundCallRepository {
  return {
    lockCarrierCalls,
    lockRingingCalls,
    lockRoutedCall,
    setCarrierCallStatus,
    recordInboundCalls,
    recordRoutedCalls,
  };
}
