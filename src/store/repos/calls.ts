import { sql } from 'drizzle-orm';
import type { InboundCall, RecordedCall } from '../../domain/carrier-inbound/ports.js';
import { attributeCall, type HeldSession, holdOf } from '../../domain/dni/attribution.js';
import { newId } from '../../domain/ids.js';
import type { Executor } from '../db.js';
import { rowsOf } from '../rows.js';
import {
  auditLog,
  calls,
  campaigns,
  dniSessions,
  numberOwners,
  trackingNumbers,
} from '../schema/index.js';
import { emitCallReceived } from './webhook-emitters.js';

export type { InboundCall, RecordedCall };

// Enough to find the live holders of a shared number and its last holder.
const SESSIONS_SCANNED = 50;

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
  // One statement reads what attribution needs: the number's campaign, the sessions that held
  // the number up to the call (newest first), the caller's latest attributed call in the
  // campaign, and whether any endpoint takes call.received. Times travel as epoch milliseconds.
  const [number] = await rowsOf<GatheredNumber>(
    ex,
    sql`select t.org_id, t.campaign_id, c.code, c.forward_to,
          (select coalesce(json_agg(json_build_object(
                    'id', s.id,
                    'created_ms', floor(extract(epoch from s.created_at) * 1000)::bigint,
                    'expires_ms', floor(extract(epoch from s.expires_at) * 1000)::bigint)
                  order by s.created_at desc), '[]'::json)
             from (select id, created_at, expires_at from ${dniSessions} s
                    where s.org_id = t.org_id and s.tracking_number = ${call.to}
                      and s.created_at <= ${started}::timestamptz
                    order by s.created_at desc
                    limit ${SESSIONS_SCANNED}) s) as held,
          (select r.dni_session_id from ${calls} r
            where r.campaign_id = t.campaign_id and r.from_number = ${call.from}
              and r.dni_session_id is not null and r.started_at <= ${started}::timestamptz
            order by r.started_at desc
            limit 1) as repeat_session_id,
          exists (select 1 from webhook_endpoints e
                   where e.org_id = t.org_id and e.enabled
                     and ('call.received' = any(e.events) or '*' = any(e.events))) as wants_event
        from ${numberOwners} o
        join ${trackingNumbers} t on t.org_id = o.org_id and t.e164 = o.e164
        join ${campaigns} c on c.id = t.campaign_id
       where o.e164 = ${call.to}`,
  );
  if (!number || (orgId !== null && number.org_id !== orgId)) return null;

  const held = (typeof number.held === 'string' ? JSON.parse(number.held) : number.held).map(
    (h: { id: string; created_ms: number; expires_ms: number }) => ({
      id: h.id,
      createdAt: new Date(Number(h.created_ms)),
      expiresAt: new Date(Number(h.expires_ms)),
    }),
  ) as HeldSession[];
  const attribution = attributeCall(call.startedAt, held, number.repeat_session_id);
  const hold = holdOf(attribution, held);

  const callId = newId('call', now.getTime());
  const detail = {
    campaign_code: number.code,
    attribution: attribution.kind,
    dni_session_id: attribution.sessionId,
    ...(call.carrier ? { carrier: call.carrier.name, carrier_call_sid: call.carrier.callSid } : {}),
  };
  // The call and its audit line in one statement.
  await ex.execute(
    sql`with c as (
          insert into ${calls} (id, org_id, campaign_id, dni_session_id, tracking_number,
            from_number, started_at, attribution, ambiguous, session_created_at,
            session_expires_at, carrier, carrier_call_sid, status)
          values (${callId}, ${number.org_id}, ${number.campaign_id}, ${attribution.sessionId},
            ${call.to}, ${call.from}, ${started}::timestamptz, ${attribution.kind},
            ${attribution.ambiguous}, ${hold ? hold.createdAt.toISOString() : null}::timestamptz,
            ${hold ? hold.expiresAt.toISOString() : null}::timestamptz,
            ${call.carrier?.name ?? null}, ${call.carrier?.callSid ?? null},
            ${call.carrier?.status ?? null})
          returning id)
        insert into ${auditLog} (id, org_id, actor, action, subject_type, subject_id, detail,
                                 request_id, at)
        select ${newId('aud', now.getTime())}, ${number.org_id}, ${actor}, 'call.recorded', 'call',
               c.id, ${JSON.stringify(detail)}::jsonb, ${requestId}, ${now.toISOString()}::timestamptz
          from c`,
  );
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
