import type { ItemResult } from '../../domain/conversions/platform.js';
import { times } from './http.js';

/**
 * How Google reports processing a Data Manager request (`RetrieveRequestStatusResponse`,
 * google/ads/datamanager/v1/request_status_per_destination.proto and processing_errors.proto
 * of `@google-ads/datamanager`): per destination, a status for the whole request and counts
 * of records per error reason, never which record.
 */
interface ErrorCount {
  recordCount?: string | number;
  reason?: string;
}
interface StatusPerDestination {
  requestStatus?: string;
  errorInfo?: { errorCounts?: ErrorCount[] };
  warningInfo?: { warningCounts?: ErrorCount[] };
}
export interface RequestStatusAnswer {
  requestStatusPerDestination?: StatusPerDestination[];
}

/** A transaction id Google already holds: the conversion is there. */
const HELD = new Set([
  'PROCESSING_ERROR_REASON_DUPLICATE_TRANSACTION_ID',
  'PROCESSING_ERROR_REASON_DUPLICATE_GCLID',
]);

const counted = (counts: ErrorCount[]) =>
  counts.map(
    (c) => `${c.reason ?? 'PROCESSING_ERROR_REASON_UNSPECIFIED'} ×${c.recordCount ?? '?'}`,
  );

/** One row's result when Google names one reason for it. */
function oneReason(reason: string, words: string): ItemResult {
  if (HELD.has(reason)) return { state: 'sent', note: `Google already held it (${reason})` };
  if (reason === 'PROCESSING_ERROR_REASON_INTERNAL_ERROR') {
    return { state: 'retry', code: 'server_error', detail: words, resend: 'again' };
  }
  if (reason === 'PROCESSING_ERROR_REASON_EVENT_TOO_OLD') {
    return { state: 'failed', code: 'too_old', detail: words };
  }
  return { state: 'failed', code: 'rejected_by_platform', detail: words };
}

/**
 * Each row's result from Google's report on the request that carried them (we send one
 * destination per request, so the first entry is ours). PROCESSING (or no entry yet): checked
 * again later. SUCCESS: sent. FAILED with one reason: every row has it. Anything that leaves a
 * row's own outcome unknown (PARTIAL_SUCCESS, or FAILED for several reasons, over several
 * rows): each row is sent again alone, and its own request's report names its outcome
 * (Google drops a transaction id it holds as a duplicate, so a held one reads sent).
 */
export function requestStatusResults(answer: RequestStatusAnswer, n: number): ItemResult[] {
  const s = answer.requestStatusPerDestination?.[0];
  const status = s?.requestStatus ?? 'REQUEST_STATUS_UNKNOWN';
  const errors = s?.errorInfo?.errorCounts ?? [];
  const warnings = s?.warningInfo?.warningCounts ?? [];
  const words = `Google's processing report: ${[status, ...counted(errors)].join(', ')}`;
  if (status === 'SUCCESS') {
    return times(
      n,
      warnings.length > 0
        ? {
            state: 'sent',
            note: `Google processed it with warnings: ${counted(warnings).join(', ')}`,
          }
        : { state: 'sent' },
    );
  }
  if (status === 'FAILED' || status === 'PARTIAL_SUCCESS') {
    const reasons = [
      ...new Set(errors.map((c) => c.reason ?? 'PROCESSING_ERROR_REASON_UNSPECIFIED')),
    ];
    if (status === 'FAILED' && (n === 1 || reasons.length <= 1)) {
      return times(n, oneReason(reasons[0] ?? 'PROCESSING_ERROR_REASON_UNSPECIFIED', words));
    }
    if (n === 1) {
      // One record and a partial success: Google kept it, with a reason counted nonetheless.
      return [{ state: 'sent', note: words }];
    }
    return times(n, {
      state: 'retry',
      code: 'processed_in_part',
      detail: words,
      retryAfterMs: 0,
      resend: 'alone',
    });
  }
  return times(n, { state: 'retry', code: 'awaiting_confirmation', detail: words });
}
