import {
  type ConsentEvent,
  contactRevocationEvent,
  recordConsentEvent,
  revokeAll,
} from '../consents/consents.js';
import type { Recorder } from '../consents/ports.js';
import type { DispatchPayload } from '../dispatch/payload.js';
import { newId } from '../ids.js';
import { readReply } from '../outbound/opt-out-words.js';
import { normalizeE164 } from '../phone/e164.js';
import type { Transaction } from '../ports.js';
import type { CarrierContext } from './inbound.js';
import type { NumberOwner, OptOutRepos } from './ports.js';

/** The key a prerecorded call or voicemail drop asks the contact to press to opt out. */
export const OPT_OUT_DIGIT = '9';
/** Marks the confirmation text among a campaign's touches. */
export const CONFIRMATION_SCENARIO = 'opt_out_confirmation';
/** Marks the one-time clarification text (FCC 24-24) among a campaign's touches. */
export const CLARIFICATION_SCENARIO = 'opt_out_clarification';
/** Asks, without marketing, whether an ambiguous reply meant to stop everything. */
export const CLARIFICATION_TEXT =
  'Did you mean to stop all texts and calls from us? Reply STOP to opt out.';

export interface InboundMessage {
  messageSid: string;
  from: string;
  to: string;
  body: string;
}

export interface OrgOutcome {
  orgId: string;
  /** `clarify`: an ambiguous reply, answered by the one-time question instead of a revocation. */
  meaning: 'revoke' | 'resubscribe' | 'clarify';
  /** Null when this message was already recorded (a replay), or for `clarify`. */
  eventId: string | null;
  /** The confirmation (revoke) or clarification (clarify) text queued; null: none. */
  touchId: string | null;
}

export type MessageOutcome = { kind: 'unknown_number' } | { kind: 'recorded'; orgs: OrgOutcome[] };

/** True when the latest revocation on file is not followed by a newer grant. */
function optedOut(history: readonly ConsentEvent[]): boolean {
  let lastRevocation = -Infinity;
  let lastGrant = -Infinity;
  for (const e of history) {
    const at = e.capturedAt.getTime();
    if (e.kind === 'grant') lastGrant = Math.max(lastGrant, at);
    else if (e.kind !== 'resubscribe') lastRevocation = Math.max(lastRevocation, at);
  }
  return lastRevocation > -Infinity && lastGrant <= lastRevocation;
}

interface Reply {
  campaignId: string;
  contact: string;
  ourNumber: string;
  text: string;
  scenario: string;
  /** Kept on the touch as its `checks`: why it was sent without the gate. */
  checks: Record<string, unknown>;
}

/**
 * A text we owe the contact in answer to their reply, queued as a touch in the reply's
 * transaction, from the number the contact wrote to. It bypasses the gate on purpose: it is
 * the one message the rules still allow (the confirmation of 64.1200(a)(12), or the one-time
 * clarification of FCC 24-24).
 */
async function queueReply(
  r: OptOutRepos,
  tx: Transaction,
  by: Recorder,
  orgId: string,
  reply: Reply,
): Promise<string> {
  const touchId = newId('tch', by.at.getTime());
  const payload: DispatchPayload = {
    touch_id: touchId,
    channel: 'sms',
    to: reply.contact,
    from: reply.ourNumber,
    text: reply.text,
    twiml: null,
    recording_url: null,
    template_id: null,
  };
  await r.touches.recordDecision(tx, {
    touch: {
      id: touchId,
      orgId,
      campaignId: reply.campaignId,
      toE164: reply.contact,
      channel: 'sms',
      status: 'queued',
      placed: true,
      consentBasis: 'none',
      scenarioRef: reply.scenario,
      reasons: [],
      checks: reply.checks,
      decidedAt: by.at,
      actor: by.actor,
      requestId: by.requestId,
      dispatchStatus: 'pending',
    },
    jobPayload: payload,
    audit: {
      orgId,
      actor: by.actor,
      action: 'touch.queued',
      subjectType: 'touch',
      subjectId: touchId,
      detail: {
        campaign_id: reply.campaignId,
        to_e164: reply.contact,
        channel: 'sms',
        scenario_ref: reply.scenario,
      },
      requestId: by.requestId,
      at: by.at,
    },
    idempotency: null,
  });
  return touchId;
}

/** The campaign's confirmation text, when one of the number's campaigns sets it. */
function confirmationFor(owner: NumberOwner, contact: string, ourNumber: string): Reply | null {
  const campaign = owner.campaigns.find((c) => typeof c.config.opt_out_confirmation === 'string');
  if (!campaign) return null;
  return {
    campaignId: campaign.id,
    contact,
    ourNumber,
    text: campaign.config.opt_out_confirmation as string,
    scenario: CONFIRMATION_SCENARIO,
    checks: {},
  };
}

/**
 * Whether to ask instead of revoking: the organization turned the clarification text on, the
 * reply is ambiguous, and this contact was never asked before (the FCC allows ONE such text; a
 * second ambiguous reply revokes). A replay of the message that was asked about asks nothing
 * more: 'replay'.
 */
async function clarification(
  r: OptOutRepos,
  tx: Transaction,
  owner: NumberOwner,
  contact: string,
  messageSid: string,
  clear: boolean,
): Promise<'ask' | 'replay' | 'revoke'> {
  if (clear || !owner.optOutClarification || owner.campaigns.length === 0) return 'revoke';
  const asked = await r.optOuts.clarificationsSent(tx, owner.orgId, contact);
  if (asked.includes(messageSid)) return 'replay';
  return asked.length === 0 ? 'ask' : 'revoke';
}

/**
 * A text to one of our numbers. A revocation word (or one of the organization's phrases)
 * anywhere in it opts the sender out of everything, for every organization that owns the number,
 * unless the reply is ambiguous and the organization asks first (one clarification text per
 * contact); START and UNSTOP are kept as history only. Durable when this returns; a replay of
 * the same MessageSid adds nothing (the event's fingerprint is the MessageSid, under a unique
 * index; a clarification is found by the MessageSid it answered).
 */
export async function acceptInboundMessage(
  r: OptOutRepos,
  ctx: CarrierContext,
  msg: InboundMessage,
): Promise<MessageOutcome> {
  const to = normalizeE164(msg.to) ?? msg.to;
  const contact = normalizeE164(msg.from) ?? msg.from;
  return r.transaction(async (tx) => {
    const owners = await r.optOuts.ownersOfNumber(tx, to);
    if (owners.length === 0) return { kind: 'unknown_number' };
    const outcomes: OrgOutcome[] = [];
    for (const owner of owners) {
      const reading = readReply(msg.body, owner.optOutPhrases);
      if (reading.meaning === null) continue;
      const by = {
        orgId: owner.orgId,
        actor: `carrier:${ctx.carrier}`,
        requestId: ctx.requestId,
        at: ctx.now,
      };
      // The lock every touch decision takes: a touch decided now sees this revocation or ends first.
      await r.touches.lockContact(tx, owner.orgId, contact);
      const evidence = {
        message_sid: msg.messageSid,
        body: msg.body,
        from: contact,
        to,
        ...(reading.meaning === 'revoke'
          ? { matched_word: reading.matched, clear: reading.clear }
          : {}),
      };
      if (reading.meaning === 'revoke') {
        const ask = await clarification(r, tx, owner, contact, msg.messageSid, reading.clear);
        if (ask !== 'revoke') {
          const touchId =
            ask === 'ask'
              ? await queueReply(r, tx, by, owner.orgId, {
                  campaignId: owner.campaigns[0]!.id,
                  contact,
                  ourNumber: to,
                  text: CLARIFICATION_TEXT,
                  scenario: CLARIFICATION_SCENARIO,
                  checks: { reply: evidence },
                })
              : null;
          outcomes.push({ orgId: owner.orgId, meaning: 'clarify', eventId: null, touchId });
          continue;
        }
      }
      const wasOut = optedOut(await r.consents.contactHistory(tx, owner.orgId, contact));
      const revocation = {
        source: `sms:${ctx.carrier}`,
        ref: `${ctx.carrier}:${msg.messageSid}`,
        evidence,
      };
      const eventId =
        reading.meaning === 'revoke'
          ? await revokeAll(r, tx, by, contact, revocation)
          : await recordConsentEvent(
              r,
              tx,
              by,
              contactRevocationEvent(
                contact,
                { ...revocation, kind: 'resubscribe' },
                by.at.getTime(),
              ),
            );
      const confirmation =
        reading.meaning === 'revoke' && eventId !== null && !wasOut
          ? confirmationFor(owner, contact, to)
          : null;
      const touchId = confirmation ? await queueReply(r, tx, by, owner.orgId, confirmation) : null;
      outcomes.push({ orgId: owner.orgId, meaning: reading.meaning, eventId, touchId });
    }
    return { kind: 'recorded', orgs: outcomes };
  });
}

export interface Keypress {
  touchId: string;
  callSid: string;
  digits: string;
}

export type KeypressOutcome = 'revoked' | 'repeat' | 'other_digit' | 'unknown_touch';

/**
 * A digit pressed during a prerecorded call or voicemail drop we placed. The touch id in the
 * (signed) action URL says who was called and for which organization.
 */
export async function acceptKeypress(
  r: OptOutRepos,
  ctx: CarrierContext,
  k: Keypress,
): Promise<KeypressOutcome> {
  if (k.digits !== OPT_OUT_DIGIT) return 'other_digit';
  return r.transaction(async (tx) => {
    const touch = await r.optOuts.touchForKeypress(tx, k.touchId);
    if (!touch) return 'unknown_touch';
    const by = {
      orgId: touch.orgId,
      actor: `carrier:${ctx.carrier}`,
      requestId: ctx.requestId,
      at: ctx.now,
    };
    await r.touches.lockContact(tx, touch.orgId, touch.toE164);
    const id = await revokeAll(r, tx, by, touch.toE164, {
      source: `keypress:${ctx.carrier}`,
      ref: `${ctx.carrier}:${k.callSid}:keypress`,
      evidence: {
        call_sid: k.callSid,
        digits: k.digits,
        touch_id: touch.id,
        campaign_id: touch.campaignId,
        channel: touch.channel,
      },
    });
    return id === null ? 'repeat' : 'revoked';
  });
}
