import type {
  GatheredCalls,
  InboundCall,
  InboundCallRequest,
  RecordedCall,
  RoutedCalls,
} from '../../domain/carrier-inbound/ports.js';
import { attributeCall, type HeldSession, holdOf } from '../../domain/dni/attribution.js';
import { newId } from '../../domain/ids.js';
import type { ReceivedCall } from '../../domain/webhooks/ports.js';
import type { Executor } from '../db.js';
import { hotRows, type InlinedStatement } from '../rows.js';
import { AUDIT_COLUMNS } from './audit.js';
import { type CandidateRow, planRows, plansOf } from './routing.js';
import { emitCallReceived } from './webhook-emitters.js';

export type { InboundCall, InboundCallRequest, RecordedCall };

// Enough to find the live holders of a shared number and its last holder.
const SESSIONS_SCANNED = 50;

/**
 * What attribution needs, for each call of a batch in one statement (src/store/sql/
 * calls_gathered.sql): the number's campaign (the numbers: $1), the sessions that held it up to
 * the call ($2: the calls' times) newest first ($4 at most), the caller's ($3) latest attributed
 * call in the campaign, and whether any endpoint takes call.received. `ord` is the call's
 * 1-based place in the batch; a number no campaign answers for has no row. The number's
 * organization comes first (number_owners), then the number by organization and number: a read
 * a PostgreSQL sharded by organization sends to one node (docs/scaling.md). Times travel as
 * epoch milliseconds.
 */
const GATHERED = 'select * from calls_gathered($1::text[], $2::timestamptz[], $3::text[], $4::int)';

/** GATHERED for these calls, as hotRows or an opening (openingRowSets) sends it. */
export function gatheredStatement(requests: readonly InboundCallRequest[]): InlinedStatement {
  return {
    text: GATHERED,
    params: [
      requests.map((r) => r.call.to),
      requests.map((r) => r.call.startedAt.toISOString()),
      requests.map((r) => r.call.from),
      String(SESSIONS_SCANNED),
    ],
  };
}

/**
 * What GATHERED read for calls of a carrier, by carrier call id (lockRingingCalls,
 * carrier-calls.ts): a voice webhook reads it with its lock, and recordRoutedCalls takes it
 * from there instead of reading it again.
 */
export function gatheredByCallSid(
  requests: readonly InboundCallRequest[],
  rows: readonly GatheredNumber[],
): GatheredCalls {
  const byCallSid = new Map<string, GatheredNumber>();
  for (const n of rows) {
    const sid = requests[Number(n.ord) - 1]?.call.carrier?.callSid;
    if (sid !== undefined) byCallSid.set(sid, n);
  }
  return byCallSid as unknown as GatheredCalls;
}

/**
 * The calls and their audit lines, in one statement ($1: a JSON array, one object a call). The
 * calls go in by organization and caller: the report trigger locks each caller's report_callers
 * row until the commit, so two batches that share callers lock them in the same order and
 * never each hold a row the other waits for.
 */
const RECORDED = `
  with x as (
    select * from jsonb_to_recordset($1::jsonb) as x(
      id text, org_id text, campaign_id text, dni_session_id text, tracking_number text,
      from_number text, started_at timestamptz, attribution text, ambiguous boolean,
      session_created_at timestamptz, session_expires_at timestamptz, carrier text,
      carrier_call_sid text, status text, audit_id text, actor text, detail jsonb,
      request_id text, at timestamptz)),
  c as (
    insert into calls (id, org_id, campaign_id, dni_session_id, tracking_number, from_number,
                       started_at, attribution, ambiguous, session_created_at,
                       session_expires_at, carrier, carrier_call_sid, status)
    select id, org_id, campaign_id, dni_session_id, tracking_number, from_number, started_at,
           attribution, ambiguous, session_created_at, session_expires_at, carrier,
           carrier_call_sid, status
      from x
     order by org_id, from_number, started_at, id
    returning id)`;

const AUDITED = `
  insert into audit_log (${AUDIT_COLUMNS})
  select x.audit_id, x.org_id, x.actor, 'call.recorded', 'call', x.id, x.detail, x.request_id,
         x.at
    from c join x on x.id = c.id`;

const RECORD = `${RECORDED}${AUDITED}`;

/**
 * RECORD, then the routing plans of the calls' campaigns (routing.ts, planRows) in the same
 * statement: a voice webhook's transaction is a round trip shorter than with a read of its own.
 * A statement's data-modifying parts run to their end whatever its query reads.
 */
const RECORD_ROUTED = `${RECORDED},
  a as (${AUDITED.trim()} returning 1)
  ${planRows('(select distinct org_id, campaign_id from x)').trim()}`;

export interface GatheredNumber {
  ord: number;
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

/** A recorded call's row for RECORD: the call and its audit line's fields. */
function recordRow(
  c: RecordedCall,
  { call, requestId, now }: InboundCallRequest,
  hold: HeldSession | null,
  actor: string,
): Record<string, unknown> {
  const { attribution } = c;
  return {
    id: c.callId,
    org_id: c.orgId,
    campaign_id: c.campaignId,
    dni_session_id: attribution.sessionId,
    tracking_number: call.to,
    from_number: call.from,
    started_at: call.startedAt.toISOString(),
    attribution: attribution.kind,
    ambiguous: attribution.ambiguous,
    session_created_at: hold ? hold.createdAt.toISOString() : null,
    session_expires_at: hold ? hold.expiresAt.toISOString() : null,
    carrier: call.carrier?.name ?? null,
    carrier_call_sid: call.carrier?.callSid ?? null,
    status: call.carrier?.status ?? null,
    audit_id: newId('aud', now.getTime()),
    actor,
    detail: {
      campaign_code: c.campaignCode,
      attribution: attribution.kind,
      dni_session_id: attribution.sessionId,
      ...(call.carrier
        ? { carrier: call.carrier.name, carrier_call_sid: call.carrier.callSid }
        : {}),
    },
    request_id: requestId,
    at: now.toISOString(),
  };
}

/** The `call.received` event's call. */
const receivedCall = (c: RecordedCall, call: InboundCall): ReceivedCall => ({
  callId: c.callId,
  orgId: c.orgId,
  campaignId: c.campaignId,
  campaignCode: c.campaignCode,
  trackingNumber: call.to,
  caller: call.from,
  startedAt: call.startedAt,
  attribution: c.attribution,
  carrier: call.carrier ? { name: call.carrier.name, callSid: call.carrier.callSid } : null,
});

/**
 * Attributes a batch of inbound calls to the sessions that held their numbers (contract §3)
 * and stores them, in two statements whatever the batch's size (and the `call.received` events
 * of the organizations that take them). `orgId` restricts the lookup to one organization
 * (admin API); null accepts any organization's number (a carrier webhook). Null at a call's
 * place: no campaign answers for its number. A caller who calls twice in one batch is a repeat
 * caller of the first call's session, as if the two had come one after the other.
 */
export async function recordInboundCalls(
  ex: Executor,
  orgId: string | null,
  requests: readonly InboundCallRequest[],
  actor: string,
): Promise<(RecordedCall | null)[]> {
  return (await record(ex, orgId, requests, actor, false)).calls;
}

/** recordInboundCalls, with the routing plans of the calls' campaigns read in its write. */
export function recordRoutedCalls(
  ex: Executor,
  requests: readonly InboundCallRequest[],
  actor: string,
  gathered?: GatheredCalls,
): Promise<RoutedCalls> {
  return record(ex, null, requests, actor, true, gathered);
}

async function record(
  ex: Executor,
  orgId: string | null,
  requests: readonly InboundCallRequest[],
  actor: string,
  routed: boolean,
  gathered?: GatheredCalls,
): Promise<RoutedCalls> {
  if (requests.length === 0) return { calls: [], plans: new Map() };
  let numberOf: (request: InboundCallRequest, i: number) => GatheredNumber | undefined;
  if (gathered) {
    const read = gathered as unknown as ReadonlyMap<string, GatheredNumber>;
    numberOf = (r) => read.get(r.call.carrier?.callSid ?? '');
  } else {
    const { text, params } = gatheredStatement(requests);
    const rows = await hotRows<GatheredNumber>(ex, text, params);
    const byOrd = new Map(rows.map((n) => [Number(n.ord), n]));
    numberOf = (_, i) => byOrd.get(i + 1);
  }
  // The latest attributed session of a caller in a campaign, from the calls of this batch.
  const repeats = new Map<string, string>();
  const out: (RecordedCall | null)[] = [];
  const rows: Record<string, unknown>[] = [];
  const received: { call: ReceivedCall; at: Date }[] = [];
  requests.forEach((request, i) => {
    const number = numberOf(request, i);
    if (!number || (orgId !== null && number.org_id !== orgId)) {
      out.push(null);
      return;
    }
    const { call } = request;
    const repeatKey = `${number.campaign_id} ${call.from}`;
    const held = heldSessions(number.held);
    const repeat = repeats.get(repeatKey) ?? number.repeat_session_id;
    const attribution = attributeCall(call.startedAt, held, repeat);
    if (attribution.sessionId !== null) repeats.set(repeatKey, attribution.sessionId);
    const recorded: RecordedCall = {
      callId: newId('call', request.now.getTime()),
      orgId: number.org_id,
      campaignId: number.campaign_id,
      campaignCode: number.code,
      forwardTo: number.forward_to,
      attribution,
    };
    rows.push(recordRow(recorded, request, holdOf(attribution, held), actor));
    if (number.wants_event) received.push({ call: receivedCall(recorded, call), at: request.now });
    out.push(recorded);
  });
  const plans =
    rows.length === 0
      ? []
      : await hotRows<CandidateRow>(ex, routed ? RECORD_ROUTED : RECORD, [JSON.stringify(rows)]);
  for (const { call, at } of received) await emitCallReceived(ex, call, at);
  return { calls: out, plans: plansOf(plans) };
}
