import { conversionSettings } from '../exports/settings.js';
import { newId } from '../ids.js';
import type { Transaction } from '../ports.js';
import { type CallSubject, callFacts, skipReason } from './facts.js';
import type { Destination, Money, NewUpload, UploadOutbox } from './ports.js';
import { notRetractableReason, retractability } from './retractability.js';
import { REASONS } from './vocabulary.js';

export interface ReportFacts {
  orgId: string;
  campaignCode: string;
  callId: string;
  eventId: string;
  disposition: 'success' | 'rejected';
  at: Date;
}

/**
 * The destination's value, else the payout of the call's buyer (contract §10, §11: a routed call
 * answered by a buyer, its payout fixed, in the organization's currency), else the campaign's
 * `config.conversion` value, else none.
 */
export function conversionValue(destination: Destination, subject: CallSubject): Money | null {
  if (destination.value) return destination.value;
  if (subject.payout !== null)
    return { amount: Number(subject.payout), currency: subject.currency };
  const campaignConfig = subject.campaignConfig;
  const raw = (campaignConfig as { conversion?: unknown } | null)?.conversion;
  if (raw === undefined || raw === null) return null;
  const s = conversionSettings(campaignConfig);
  return s.ok ? { amount: s.settings.value, currency: s.settings.currency } : null;
}

/**
 * Writes the uploads a trigger causes, in the caller's transaction: one row per destination
 * that wants it, pending, or failed at once with the reason when the session carries nothing
 * that platform can match on (so an operator sees why nothing was sent).
 */
export async function enqueueConversions(
  outbox: UploadOutbox,
  tx: Transaction,
  e: Omit<ReportFacts, 'disposition'>,
  event: 'buyer_success' | 'answered_call',
  minSeconds?: (d: Destination) => boolean,
): Promise<number> {
  const wanted = (await outbox.triggeredDestinations(tx, e.orgId, e.campaignCode, event)).filter(
    (d) => minSeconds?.(d) ?? true,
  );
  if (wanted.length === 0) return 0;
  const subject = await outbox.callSubject(tx, e.orgId, e.callId);
  if (!subject) return 0;
  const rows: NewUpload[] = wanted.map((d) => {
    const facts = callFacts(subject, conversionValue(d, subject));
    const skip = skipReason(d.platform, facts);
    return {
      id: newId('cup', e.at.getTime()),
      orgId: e.orgId,
      destinationId: d.id,
      callId: e.callId,
      kind: 'conversion',
      eventId: e.eventId,
      // Google's order_id, Meta's event_id, GA4's transaction_id: the call, on every retry.
      dedupeKey: e.callId,
      status: skip ? 'failed' : 'pending',
      facts,
      reasonCode: skip,
      reason: skip ? REASONS[skip].words : null,
      at: e.at,
    };
  });
  return outbox.insertUploads(tx, rows);
}

/**
 * A `rejected` report. A conversion the platform cannot hold yet (never attempted, not in
 * flight) is cancelled. One it may hold (sent, in flight, or attempted without an answer:
 * maybe_applied, whatever its status) is retracted where its destination can retract
 * (retractability.ts: Google Ads conversion adjustments with a developer token, Microsoft
 * offline conversion adjustments), and is not_retractable elsewhere, with no retraction row;
 * there, one in flight or awaiting the platform's report keeps being followed, and reads
 * not_retractable once sent. A conversion still being retried is retracted once it is sent;
 * one that failed is retracted at once (docs/conversions.md, "Corrections").
 */
export async function retractConversions(
  outbox: UploadOutbox,
  tx: Transaction,
  e: Omit<ReportFacts, 'disposition' | 'campaignCode'>,
): Promise<void> {
  const states = await outbox.lockConversions(tx, e.orgId, e.callId, e.at);
  const retractions: NewUpload[] = [];
  for (const s of states) {
    if (s.rejected || s.status === 'retracted' || s.status === 'not_retractable') continue;
    const mayHold = s.status === 'sent' || s.leased || s.maybeApplied;
    if (!mayHold) {
      if (s.status === 'pending') {
        await outbox.markRejected(tx, s.uploadId, {
          status: 'failed',
          reasonCode: 'rejected_before_upload',
          reason: REASONS.rejected_before_upload.words,
          at: e.at,
        });
      }
      continue;
    }
    const can = retractability(s.destination);
    if (can.retractable) {
      await outbox.markRejected(tx, s.uploadId, { at: e.at });
      retractions.push({
        id: newId('cup', e.at.getTime()),
        orgId: e.orgId,
        destinationId: s.destinationId,
        callId: e.callId,
        kind: 'retraction',
        eventId: e.eventId,
        dedupeKey: s.dedupeKey,
        status: 'pending',
        facts: s.facts,
        reasonCode: null,
        reason: null,
        at: e.at,
      });
    } else if (s.leased || s.awaiting) {
      // In flight, or accepted and awaiting the platform's report: its upload is still followed
      // to its end, and the worker marks it not_retractable if that end is sent.
      await outbox.markRejected(tx, s.uploadId, { at: e.at });
    } else {
      await outbox.markRejected(tx, s.uploadId, {
        status: 'not_retractable',
        reasonCode: 'not_retractable',
        reason: notRetractableReason(
          can.why,
          s.status === 'sent'
            ? 'the buyer rejected the call after it was uploaded'
            : 'the buyer rejected the call after an upload attempt the platform may have kept',
        ),
        at: e.at,
      });
    }
  }
  if (retractions.length > 0) await outbox.insertUploads(tx, retractions);
}
