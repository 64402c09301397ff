import { errors } from '../../errors.js';
import { newId } from '../ids.js';
import type { Transaction } from '../ports.js';
import { conversionValue } from './enqueue.js';
import { callFacts, skipReason } from './facts.js';
import type { Destination, NewUpload, RequeueRepos, Skipped } from './ports.js';
import { REASONS, type ReasonCode, UPLOAD_WINDOW_MS } from './vocabulary.js';

export interface RequeueRequest {
  upload_id?: string;
  since?: string;
  call_id?: string;
}

export interface RequeueResult {
  queued: number;
  /** Replay only: each call not queued, and why. */
  skipped: { call_id: string; reason_code: ReasonCode; reason: string }[];
}

/**
 * Backfill for a destination created after its calls: every call its trigger would have fired
 * for and that has no upload yet, queued as the report would have queued it, or skipped with
 * the reason (the buyer rejected it, no click id, older than the platform's window).
 */
async function backfill(
  repos: RequeueRepos,
  tx: Transaction,
  d: Destination,
  what: { since?: Date; callId?: string },
  now: Date,
): Promise<{ queued: number; skipped: Skipped[] }> {
  const candidates = await repos.uploads.backfillCandidates(tx, d, what);
  const skipped: Skipped[] = [];
  const rows: NewUpload[] = [];
  for (const c of candidates) {
    const callId = c.subject.callId;
    if (d.trigger.event === 'buyer_success' && c.disposition !== 'success') {
      skipped.push({ callId, code: 'rejected_by_buyer' });
      continue;
    }
    const facts = callFacts(c.subject, conversionValue(d, c.subject));
    const skip =
      skipReason(d.platform, facts) ??
      (now.getTime() - c.subject.startedAt.getTime() > UPLOAD_WINDOW_MS[d.platform]
        ? 'too_old'
        : null);
    if (skip) {
      skipped.push({ callId, code: skip });
      continue;
    }
    rows.push({
      id: newId('cup', now.getTime()),
      orgId: d.orgId,
      destinationId: d.id,
      callId,
      kind: 'conversion',
      eventId: c.dispositionEventId ?? `backfill_${callId}`,
      dedupeKey: callId,
      status: 'pending',
      facts,
      reasonCode: null,
      reason: null,
      at: now,
    });
  }
  const queued = rows.length > 0 ? await repos.uploads.insertUploads(tx, rows) : 0;
  return { queued, skipped };
}

/**
 * Retry (failed uploads, one or every retriable one) or replay (sent or failed conversions,
 * since a time or of one call, plus the backfill of calls from before the destination): the
 * rows go back to pending, due now, and the audit record commits with them. A named upload
 * that cannot be retried is a 404.
 */
export function requeueUploads(
  repos: RequeueRepos,
  d: Destination,
  action: 'retry' | 'replay',
  b: RequeueRequest,
  ctx: { now: Date; requestId: string | null },
): Promise<RequeueResult> {
  return repos.transaction(async (tx) => {
    let queued: number;
    let skipped: Skipped[] = [];
    if (action === 'retry') {
      queued = await repos.uploads.retryUploads(tx, d.orgId, d.id, b.upload_id, ctx.now);
      if (b.upload_id && queued === 0) throw errors.uploadNotFound();
    } else {
      const what = {
        ...(b.since ? { since: new Date(b.since) } : {}),
        ...(b.call_id ? { callId: b.call_id } : {}),
      };
      const again = await repos.uploads.replayUploads(tx, d.orgId, d.id, what, ctx.now);
      const fresh = await backfill(repos, tx, d, what, ctx.now);
      queued = again.queued + fresh.queued;
      skipped = [...again.skipped, ...fresh.skipped];
    }
    await repos.audit.writeAudit(tx, {
      orgId: d.orgId,
      actor: 'admin',
      action: `conversion_upload.${action}`,
      subjectType: 'conversion_destination',
      subjectId: d.id,
      detail: { ...b, queued, skipped: skipped.length },
      requestId: ctx.requestId,
      at: ctx.now,
    });
    return {
      queued,
      skipped: skipped.map((s) => ({
        call_id: s.callId,
        reason_code: s.code,
        reason: REASONS[s.code].words,
      })),
    };
  });
}
