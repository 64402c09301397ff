import {
  type ConsentEvent,
  contactRevocationEvent,
  recordConsentEvent,
  revokeAll,
} from '../consents/consents.js';
import type { Recorder } from '../consents/ports.js';
import type { DispatchPayload } from '../dispatch/payload.js';
import { newId } from '../ids.js';
import { replyMeaning } from '../outbound/opt-out-words.js';
import { normalizeE164 } from '../phone/e164.js';
import type { Transaction } from '../ports.js';
import type { CarrierContext } from './inbound.js';
import type { NumberOwner, OptOutRepos } from './ports.js';

/** The key a prerecorded call or voicemail drop asks the contact to press to opt out. */
export const OPT_OUT_DIGIT = '9';
/** Marks the confirmation text among a campaign's touches. */
export const CONFIRMATION_SCENARIO = 'opt_out_confirmation';

export interface InboundMessage {
  messageSid: string;
  from: string;
  to: string;
  body: string;
}

export interface OrgOutcome {
  orgId: string;
  meaning: 'revoke' | 'resubscribe';
  /** Null when this message was already recorded (a replay). */
  eventId: string | null;
  confirmationTouchId: string | null;
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

/**
 * The one confirmation text 64.1200(a)(12) allows, queued as a touch in the revocation's
 * transaction, from the number the contact wrote to. It bypasses the gate on purpose: the
 * contact has just revoked, and the confirmation is the one message still allowed.
 */
async function queueConfirmation(
  r: OptOutRepos,
  tx: Transaction,
  by: Recorder,
  owner: NumberOwner,
  contact: string,
  ourNumber: string,
): Promise<string | null> {
  const campaign = owner.campaigns.find((c) => typeof c.config.opt_out_confirmation === 'string');
  if (!campaign) return null;
  const touchId = newId('tch', by.at.getTime());
  const payload: DispatchPayload = {
    touch_id: touchId,
    channel: 'sms',
    to: contact,
    from: ourNumber,
    text: campaign.config.opt_out_confirmation as string,
    twiml: null,
    recording_url: null,
    template_id: null,
  };
  await r.touches.recordDecision(tx, {
    touch: {
      id: touchId,
      orgId: owner.orgId,
      campaignId: campaign.id,
      toE164: contact,
      channel: 'sms',
      status: 'queued',
      placed: true,
      consentBasis: 'none',
      scenarioRef: CONFIRMATION_SCENARIO,
      reasons: [],
      checks: {},
      decidedAt: by.at,
      actor: by.actor,
      requestId: by.requestId,
      dispatchStatus: 'pending',
    },
    jobPayload: payload,
    audit: {
      orgId: owner.orgId,
      actor: by.actor,
      action: 'touch.queued',
      subjectType: 'touch',
      subjectId: touchId,
      detail: {
        campaign_id: campaign.id,
        to_e164: contact,
        channel: 'sms',
        scenario_ref: CONFIRMATION_SCENARIO,
      },
      requestId: by.requestId,
      at: by.at,
    },
    idempotency: null,
  });
  return touchId;
}

/**
 * A text to one of our numbers. A revocation word (or one of the organization's phrases) opts
 * the sender out of everything, for every organization that owns the number; START and UNSTOP
 * are kept as history only. Durable when this returns; a replay of the same MessageSid adds
 * nothing (the event's fingerprint is the MessageSid, under a unique index).
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
      const meaning = replyMeaning(msg.body, owner.optOutPhrases);
      if (meaning === null) continue;
      const by = {
        orgId: owner.orgId,
        actor: `carrier:${ctx.carrier}`,
        requestId: ctx.requestId,
        at: ctx.now,
      };
      // The lock every touch decision takes: a touch decided now sees this revocation or ends first.
      await r.touches.lockContact(tx, owner.orgId, contact);
      const wasOut = optedOut(await r.consents.contactHistory(tx, owner.orgId, contact));
      const revocation = {
        source: `sms:${ctx.carrier}`,
        ref: `${ctx.carrier}:${msg.messageSid}`,
        evidence: { message_sid: msg.messageSid, body: msg.body, from: contact, to },
      };
      const eventId =
        meaning === 'revoke'
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
      const confirmationTouchId =
        meaning === 'revoke' && eventId !== null && !wasOut
          ? await queueConfirmation(r, tx, by, owner, contact, to)
          : null;
      outcomes.push({ orgId: owner.orgId, meaning, eventId, confirmationTouchId });
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
