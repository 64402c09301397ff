import {
  type ConsentEvent,
  type ContactRevocation,
  contactRevocationEvent,
  engineConsent,
  recordConsentEvent,
  revokeAll,
} from '../consents/consents.js';
import type { Recorder } from '../consents/ports.js';
import type { DispatchPayload } from '../dispatch/payload.js';
import { newId } from '../ids.js';

import { normalizeE164 } from '../phone/e164.js';
import type { Transaction } from '../ports.js';
import type { CarrierContext } from './inbound.js';
import type { NumberOwner, OptOutRepos } from './ports.js';
import { type ReplyReading, readReply } from './reading/read.js';

/** The key a prerecorded call or voicemail drop asks the contact to press to opt out. */
export const OPT_OUT_DIGIT = '9';
/** Marks the confirmation text among a campaign's touches. */
export const CONFIRMATION_SCENARIO = 'opt_out_confirmation';
/** Marks the one-time clarification text (FCC 24-24) among a campaign's touches. */
export const CLARIFICATION_SCENARIO = 'opt_out_clarification';
/**
 * The one text 64.1200(a)(12) allows after a doubtful reply: it markets nothing, says the
 * contact is treated as opted out, and asks the one question whose answer lifts that.
 */
export const CLARIFICATION_TEXT =
  'We read your reply as a request to stop, so we will not text or call you again. Reply YES if you want to keep getting our messages.';

export interface InboundMessage {
  messageSid: string;
  from: string;
  to: string;
  body: string;
}

export interface OrgOutcome {
  orgId: string;
  /**
   * `clarify`: a doubtful reply, recorded as a pending opt-out and answered by the one-time
   * question; `clarified`: the answer that the person wants messages, which lifts it.
   */
  meaning: 'revoke' | 'resubscribe' | 'clarify' | 'clarified';
  /** Null when this message was already recorded (a replay). */
  eventId: string | null;
  /** The confirmation (revoke) or clarification (clarify) text queued; null: none. */
  touchId: string | null;
}

export type MessageOutcome = { kind: 'unknown_number' } | { kind: 'recorded'; orgs: OrgOutcome[] };

/** True when the contact's history stands revoked (a revocation not followed by a newer grant). */
function optedOut(history: readonly ConsentEvent[]): boolean {
  const { records, revocations } = engineConsent(history);
  const lastRevocation = Math.max(-Infinity, ...revocations.map((r) => new Date(r.at).getTime()));
  const lastGrant = Math.max(-Infinity, ...records.map((r) => new Date(r.captured_at).getTime()));
  return lastRevocation > -Infinity && lastGrant <= lastRevocation;
}

/** The question is pending: a pending opt-out with no later answer, clear revocation or grant. */
function pendingQuestion(history: readonly ConsentEvent[]): boolean {
  let pending = false;
  for (const e of [...history].sort((a, b) => a.capturedAt.getTime() - b.capturedAt.getTime())) {
    if (e.kind === 'opt_out_pending') pending = true;
    else if (e.kind !== 'resubscribe') pending = false;
  }
  return pending;
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
 * What a doubtful reply leads to: `ask` when the organization asks first (its setting), has a
 * campaign to send from, and never asked this contact (the FCC allows ONE such text; a later
 * doubtful reply revokes at once); `replay` for a replay of the message that was asked about.
 */
async function clarification(
  r: OptOutRepos,
  tx: Transaction,
  owner: NumberOwner,
  contact: string,
  messageSid: string,
): Promise<'ask' | 'replay' | 'revoke'> {
  if (!owner.optOutClarification || owner.campaigns.length === 0) return 'revoke';
  const asked = await r.optOuts.clarificationsSent(tx, owner.orgId, contact);
  if (asked.includes(messageSid)) return 'replay';
  return asked.length === 0 ? 'ask' : 'revoke';
}

/** What the reading decided, kept with the event and on the clarification touch. */
function readingEvidence(reading: ReplyReading) {
  return {
    reading: reading.meaning,
    matched_word: reading.matched,
    family: reading.family,
    rule: reading.rule,
    lang: reading.lang,
    clear: reading.clear,
    normalized: reading.normalized,
    ...(reading.possiblyReassigned ? { possibly_reassigned: true } : {}),
  };
}

/** A text received: `to` is our number and `contact` the sender, both normalised. */
interface Received {
  msg: InboundMessage;
  to: string;
  contact: string;
}

/** Records a revocation-kind event about the sender, with the text and its reading as evidence. */
function revocationEvents(
  repos: OptOutRepos,
  tx: Transaction,
  ctx: CarrierContext,
  by: Recorder,
  contact: string,
  messageSid: string,
  evidence: Record<string, unknown>,
) {
  return (kind: ContactRevocation['kind'], extra: Record<string, unknown> = {}) =>
    recordConsentEvent(
      repos,
      tx,
      by,
      contactRevocationEvent(
        contact,
        {
          kind,
          source: `sms:${ctx.carrier}`,
          ref: `${ctx.carrier}:${messageSid}`,
          evidence: { ...evidence, ...extra },
        },
        by.at.getTime(),
      ),
    );
}

/** What one organization owning the number records for the text; null when it means nothing. */
async function answerForOwner(
  repos: OptOutRepos,
  tx: Transaction,
  ctx: CarrierContext,
  received: Received,
  owner: NumberOwner,
): Promise<OrgOutcome | null> {
  const { msg, to, contact } = received;
  const reading = readReply(msg.body, owner.optOutPhrases);
  if (reading.meaning === null) return null;
  const by = {
    orgId: owner.orgId,
    actor: `carrier:${ctx.carrier}`,
    requestId: ctx.requestId,
    at: ctx.now,
  };
  // The lock every touch decision takes: a touch decided now sees this revocation or ends first.
  await repos.touches.lockContact(tx, owner.orgId, contact);
  const history = await repos.consents.contactHistory(tx, owner.orgId, contact);
  const evidence = {
    message_sid: msg.messageSid,
    body: msg.body,
    from: contact,
    to,
  };
  const event = revocationEvents(repos, tx, ctx, by, contact, msg.messageSid, {
    ...evidence,
    ...readingEvidence(reading),
  });

  if (reading.meaning === 'wants_messages' || reading.meaning === 'resubscribe') {
    if (pendingQuestion(history)) {
      const eventId = await event('clarified');
      return { orgId: owner.orgId, meaning: 'clarified', eventId, touchId: null };
    }
    if (reading.meaning === 'resubscribe') {
      const eventId = await event('resubscribe');
      return { orgId: owner.orgId, meaning: 'resubscribe', eventId, touchId: null };
    }
    return null;
  }

  if (reading.meaning === 'unclear') {
    const ask = await clarification(repos, tx, owner, contact, msg.messageSid);
    if (ask === 'replay') {
      return { orgId: owner.orgId, meaning: 'clarify', eventId: null, touchId: null };
    }
    if (ask === 'ask') {
      const eventId = await event('opt_out_pending', { clarification: 'asked' });
      const touchId =
        eventId === null
          ? null
          : await queueReply(repos, tx, by, owner.orgId, {
              campaignId: owner.campaigns[0]!.id,
              contact,
              ourNumber: to,
              text: CLARIFICATION_TEXT,
              scenario: CLARIFICATION_SCENARIO,
              checks: {
                reply: { ...evidence, ...readingEvidence(reading), event_id: eventId },
              },
            });
      return { orgId: owner.orgId, meaning: 'clarify', eventId, touchId };
    }
  }

  const wasOut = optedOut(history);
  const eventId = await event('opt_out');
  const confirmation = eventId !== null && !wasOut ? confirmationFor(owner, contact, to) : null;
  const touchId = confirmation ? await queueReply(repos, tx, by, owner.orgId, confirmation) : null;
  return { orgId: owner.orgId, meaning: 'revoke', eventId, touchId };
}

/**
 * A text to one of our numbers, read for its meaning (reading/read.ts) for every organization
 * that owns the number:
 *
 * - a revocation opts the sender out of everything at once;
 * - a doubtful reply opts them out too; when the organization asks first, as a pending opt-out
 *   with the one clarification question, lifted only by an answer that they want messages
 *   (silence leaves it in force);
 * - that answer, while the question is pending, is recorded as `clarified`;
 * - START and UNSTOP are kept as history only.
 *
 * Durable when this returns; a replay of the same MessageSid adds nothing (the event's
 * fingerprint is the MessageSid, under a unique index; a clarification is found by the
 * MessageSid it answered).
 */
export async function acceptInboundMessage(
  repos: OptOutRepos,
  ctx: CarrierContext,
  msg: InboundMessage,
): Promise<MessageOutcome> {
  const to = normalizeE164(msg.to) ?? msg.to;
  const contact = normalizeE164(msg.from) ?? msg.from;
  return repos.transaction(async (tx) => {
    const owners = await repos.optOuts.ownersOfNumber(tx, to);
    if (owners.length === 0) return { kind: 'unknown_number' };
    const outcomes: OrgOutcome[] = [];
    for (const owner of owners) {
      const outcome = await answerForOwner(repos, tx, ctx, { msg, to, contact }, owner);
      if (outcome) outcomes.push(outcome);
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
  repos: OptOutRepos,
  ctx: CarrierContext,
  k: Keypress,
): Promise<KeypressOutcome> {
  if (k.digits !== OPT_OUT_DIGIT) return 'other_digit';
  return repos.transaction(async (tx) => {
    const touch = await repos.optOuts.touchForKeypress(tx, k.touchId);
    if (!touch) return 'unknown_touch';
    const by = {
      orgId: touch.orgId,
      actor: `carrier:${ctx.carrier}`,
      requestId: ctx.requestId,
      at: ctx.now,
    };
    await repos.touches.lockContact(tx, touch.orgId, touch.toE164);
    const id = await revokeAll(repos, tx, by, touch.toE164, {
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
