import type { InboundCall, RecordedCall } from '../../domain/carrier-inbound/ports.js';
import { attributeCall, type HeldSession, holdOf } from '../../domain/dni/attribution.js';
import { newId } from '../../domain/ids.js';
import type { Executor } from '../db.js';
import { hotRows } from '../rows.js';
import { emitCallReceived } from './webhook-emitters.js';

export type { InboundCall, RecordedCall };

// Enough to find the live holders of a shared number and its last holder.
const SESSIONS_SCANNED = 50;

/**
 * What attribution needs, in one statement: the number's campaign ($1: the number), the
 * sessions that held it up to the call ($2) newest first ($3 at most), the caller's ($4) latest
 * attributed call in the campaign, and whether any endpoint takes call.received. The number's
 * organization comes first (number_owners), then the number by organization and number: a read
 * a PostgreSQL sharded by organization sends to one node (docs/scaling.md). Times travel as
 * epoch milliseconds.
 */
const GATHER = `
  select t.org_id, t.campaign_id, c.code, c.forward_to,
         (select coalesce(json_agg(json_build_object(
                   'id', s.id,
                   'created_ms', floor(extract(epoch from s.created_at) * 1000)::bigint,
                   'expires_ms', floor(extract(epoch from s.expires_at) * 1000)::bigint)
                 order by s.created_at desc), '[]'::json)
            from (select id, created_at, expires_at from dni_sessions s
                   where s.org_id = t.org_id and s.tracking_number = $1
                     and s.created_at <= $2::timestamptz
                   order by s.created_at desc
                   limit $3) s) as held,
         (select r.dni_session_id from calls r
           where r.campaign_id = t.campaign_id and r.from_number = $4
             and r.dni_session_id is not null and r.started_at <= $2::timestamptz
           order by r.started_at desc
           limit 1) as repeat_session_id,
         exists (select 1 from webhook_endpoints e
                  where e.org_id = t.org_id and e.enabled
                    and ('call.received' = any(e.events) or '*' = any(e.events))) as wants_event
    from number_owners o
    join tracking_numbers t on t.org_id = o.org_id and t.e164 = o.e164
    join campaigns c on c.id = t.campaign_id
   where o.e164 = $1`;

/** The call and its audit line, in one statement. */
const RECORD = `
  with c as (
    insert into calls (id, org_id, campaign_id, dni_session_id, tracking_number, from_number,
                       started_at, attribution, ambiguous, session_created_at,
                       session_expires_at, carrier, carrier_call_sid, status)
    values ($1, $2, $3, $4, $5, $6, $7::timestamptz, $8, $9, $10::timestamptz, $11::timestamptz,
            $12, $13, $14)
    returning id)
  insert into audit_log (id, org_id, actor, action, subject_type, subject_id, detail,
                         request_id, at)
  select $15, $2, $16, 'call.recorded', 'call', c.id, $17::jsonb, $18, $19::timestamptz
    from c`;

interface GatheredNumber {
  org_id: string;
  campaign_id: string;
  code: string;
  forward_to: string | null;
  /** json: PGlite and node-postgres both hand back the parsed value. */
  held: { id: string; created_ms: number | string; expires_ms: number | string }[] | string;
  repeat_session_id: string | null;
  wants_event: boolean;
}

/** The gathered sessions as attribution reads them. */
function heldSessions(held: GatheredNumber['held']): HeldSession[] {
  const rows: Exclude<GatheredNumber['held'], string> =
    typeof held === 'string' ? JSON.parse(held) : held;
  return rows.map((h) => ({
    id: h.id,
    createdAt: new Date(Number(h.created_ms)),
    expiresAt: new Date(Number(h.expires_ms)),
  }));
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
  const started = call.startedAt.toISOString();
  const [number] = await hotRows<GatheredNumber>(ex, GATHER, [
    call.to,
    started,
    SESSIONS_SCANNED,
    call.from,
  ]);
  if (!number || (orgId !== null && number.org_id !== orgId)) return null;

  const held = heldSessions(number.held);
  const attribution = attributeCall(call.startedAt, held, number.repeat_session_id);
  const hold = holdOf(attribution, held);

  const callId = newId('call', now.getTime());
  const detail = {
    campaign_code: number.code,
    attribution: attribution.kind,
    dni_session_id: attribution.sessionId,
    ...(call.carrier ? { carrier: call.carrier.name, carrier_call_sid: call.carrier.callSid } : {}),
  };
  await hotRows(ex, RECORD, [
    callId,
    number.org_id,
    number.campaign_id,
    attribution.sessionId,
    call.to,
    call.from,
    started,
    attribution.kind,
    attribution.ambiguous,
    hold ? hold.createdAt.toISOString() : null,
    hold ? hold.expiresAt.toISOString() : null,
    call.carrier?.name ?? null,
    call.carrier?.callSid ?? null,
    call.carrier?.status ?? null,
    newId('aud', now.getTime()),
    actor,
    JSON.stringify(detail),
    requestId,
    now.toISOString(),
  ]);
  if (number.wants_event) {
    await emitCallReceived(
      ex,
      {
        callId,
        orgId: number.org_id,
        campaignId: number.campaign_id,
        campaignCode: number.code,
        trackingNumber: call.to,
        caller: call.from,
        startedAt: call.startedAt,
        attribution,
        carrier: call.carrier ? { name: call.carrier.name, callSid: call.carrier.callSid } : null,
      },
      now,
    );
  }
  return {
    callId,
    orgId: number.org_id,
    campaignId: number.campaign_id,
    campaignCode: number.code,
    forwardTo: number.forward_to,
    attribution,
  };
}
