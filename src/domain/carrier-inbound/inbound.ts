import type { InboundCallRepos } from './ports.js';

export interface CarrierContext {
  carrier: string;
  requestId: string | null;
  now: Date;
}

export interface RingingCall {
  callSid: string;
  to: string;
  from: string;
  status: string | null;
}

export type InboundAnswer =
  | { kind: 'forward'; callId: string; forwardTo: string }
  | { kind: 'no_forward'; callId: string }
  | { kind: 'unknown_number' };

/**
 * A carrier's voice webhook: attributes and stores the call once per
 * carrier call id (a retried webhook gets the same answer), and says where
 * to forward it.
 */
export async function acceptInboundCall(
  r: InboundCallRepos,
  ctx: CarrierContext,
  call: RingingCall,
): Promise<InboundAnswer> {
  return r.transaction(async (tx) => {
    await r.calls.lockCarrierCall(tx, ctx.carrier, call.callSid);
    const known = await r.calls.findCarrierCall(tx, ctx.carrier, call.callSid);
    if (known) {
      return known.forwardTo
        ? { kind: 'forward', callId: known.callId, forwardTo: known.forwardTo }
        : { kind: 'no_forward', callId: known.callId };
    }
    const recorded = await r.calls.recordInboundCall(
      tx,
      null,
      {
        to: call.to,
        from: call.from,
        startedAt: ctx.now,
        carrier: { name: ctx.carrier, callSid: call.callSid, status: call.status },
      },
      `carrier:${ctx.carrier}`,
      ctx.requestId,
      ctx.now,
    );
    if (!recorded) return { kind: 'unknown_number' };
    return recorded.forwardTo
      ? { kind: 'forward', callId: recorded.callId, forwardTo: recorded.forwardTo }
      : { kind: 'no_forward', callId: recorded.callId };
  });
}

/** Twilio's final call statuses; anything else is a call still in progress. */
export const FINAL_STATUSES = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);
const PROGRESS = ['queued', 'initiated', 'ringing', 'in-progress'];

/** Whether a callback moves the call forward: a late or repeated callback moves nothing. */
export function advancesStatus(current: string | null, next: string): boolean {
  if (current === null) return true;
  if (FINAL_STATUSES.has(current)) return false;
  if (FINAL_STATUSES.has(next)) return true;
  return PROGRESS.indexOf(next) > PROGRESS.indexOf(current);
}

export interface StatusReport {
  callSid: string;
  status: string;
  durationSeconds: number | null;
}

export type StatusOutcome = 'recorded' | 'unchanged' | 'unknown_call';

/**
 * A carrier's status callback. The first final status wins: callbacks are
 * retried and may arrive out of order, and a repeat changes nothing.
 */
export async function recordCallStatus(
  r: InboundCallRepos,
  ctx: CarrierContext,
  report: StatusReport,
): Promise<StatusOutcome> {
  return r.transaction(async (tx) => {
    await r.calls.lockCarrierCall(tx, ctx.carrier, report.callSid);
    const call = await r.calls.findCarrierCall(tx, ctx.carrier, report.callSid);
    if (!call) return 'unknown_call';
    if (!advancesStatus(call.status, report.status)) return 'unchanged';
    const final = FINAL_STATUSES.has(report.status);
    const change = {
      status: report.status,
      durationSeconds: final ? report.durationSeconds : null,
      endedAt: final ? ctx.now : null,
    };
    await r.calls.setCarrierCallStatus(tx, call.callId, change);
    await r.audit.writeAudit(tx, {
      orgId: call.orgId,
      actor: `carrier:${ctx.carrier}`,
      action: 'call.status_recorded',
      subjectType: 'call',
      subjectId: call.callId,
      detail: {
        status: change.status,
        duration_seconds: change.durationSeconds,
        ended_at: change.endedAt?.toISOString() ?? null,
      },
      requestId: ctx.requestId,
      at: ctx.now,
    });
    if (final) await r.events.emitCallCompleted(tx, call.callId, ctx.now);
    return 'recorded';
  });
}
