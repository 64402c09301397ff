import { errors } from '../../errors.js';
import type { Destination, RequeueRepos } from './ports.js';

export interface RequeueRequest {
  upload_id?: string;
  since?: string;
  call_id?: string;
}

/**
 * Retry (failed uploads, one or every retriable one) or replay (sent or failed conversions,
 * since a time or of one call): the rows go back to pending, due now, and the audit record
 * commits with them. How many were queued; a named upload that cannot be retried is a 404.
 */
export function requeueUploads(
  repos: RequeueRepos,
  d: Pick<Destination, 'orgId' | 'id'>,
  action: 'retry' | 'replay',
  b: RequeueRequest,
  ctx: { now: Date; requestId: string | null },
): Promise<number> {
  return repos.transaction(async (tx) => {
    const n =
      action === 'retry'
        ? await repos.uploads.retryUploads(tx, d.orgId, d.id, b.upload_id, ctx.now)
        : await repos.uploads.replayUploads(
            tx,
            d.orgId,
            d.id,
            {
              ...(b.since ? { since: new Date(b.since) } : {}),
              ...(b.call_id ? { callId: b.call_id } : {}),
            },
            ctx.now,
          );
    if (b.upload_id && n === 0) throw errors.uploadNotFound();
    await repos.audit.writeAudit(tx, {
      orgId: d.orgId,
      actor: 'admin',
      action: `conversion_upload.${action}`,
      subjectType: 'conversion_destination',
      subjectId: d.id,
      detail: { ...b, queued: n },
      requestId: ctx.requestId,
      at: ctx.now,
    });
    return n;
  });
}
