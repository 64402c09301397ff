import type { BatchAnswer, ItemResult, SendItem } from '../../domain/conversions/platform.js';
import type { ReasonCode } from '../../domain/conversions/vocabulary.js';
import { type HttpAnswer, retryAfterMs, say, statusResult, times } from './http.js';

/**
 * What the Google Ads API's answers mean for each row (docs/conversions.md, "Upload states").
 * Codes from ConversionUploadErrorEnum and ConversionAdjustmentUploadErrorEnum.
 */

/** The conversion is already in Google (a retry after a lost reply): it counts as sent, once. */
const ALREADY_HELD = new Set([
  'ORDER_ID_ALREADY_IN_USE',
  'CLICK_CONVERSION_ALREADY_EXISTS',
  'CALL_CONVERSION_ALREADY_EXISTS',
  'DUPLICATE_ORDER_ID',
]);
/** Codes Google retries by time, and the wait its documents name when the answer names none. */
const BY_TIME: Record<string, number> = {
  TOO_RECENT_EVENT: 6 * 3_600_000,
  TOO_RECENT_CONVERSION_ACTION: 6 * 3_600_000,
};
const FINAL_CODES = new Set(['EXPIRED_EVENT', 'CLICK_NOT_FOUND', 'CONVERSION_PRECEDES_EVENT']);

export interface GoogleError {
  errorCode?: Record<string, string>;
  message?: string;
  location?: { fieldPathElements?: { fieldName?: string; index?: number }[] };
  details?: { quotaErrorDetails?: { retryDelay?: string } };
}

/** The GoogleAdsFailure errors inside a status (partialFailureError, or an error answer). */
export function failures(status: unknown): GoogleError[] {
  const details = (status as { details?: { errors?: GoogleError[] }[] } | null)?.details ?? [];
  return Array.isArray(details) ? details.flatMap((d) => d?.errors ?? []) : [];
}

export const codeOf = (error: GoogleError) => Object.values(error.errorCode ?? {})[0] ?? 'UNKNOWN';

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000 };

/**
 * The wait an error names: a protobuf Duration (`retryDelay: "21600s"`), or the words of its
 * message ("Try importing again in 6 hours", "retry after 30 minutes").
 */
export function namedWaitMs(error: GoogleError): number | undefined {
  const delay = /^(\d+(?:\.\d+)?)s$/.exec(error.details?.quotaErrorDetails?.retryDelay ?? '');
  if (delay) return Math.round(Number(delay[1]) * 1000);
  const m = /(\d+(?:\.\d+)?)\s*(hour|hr|minute|min|second|sec)s?\b/i.exec(error.message ?? '');
  if (!m) return undefined;
  return Math.round(Number(m[1]) * UNIT_MS[m[2]!.toLowerCase()[0]!]!);
}

/** One row's result from its error, for a conversion or a retraction. */
export function googleRowResult(error: GoogleError, kind: SendItem['kind']): ItemResult {
  const code = codeOf(error);
  const detail = `${code}: ${say(error.message ?? '', 200)}`.trim();
  const wait = BY_TIME[code];
  if (wait !== undefined) {
    return {
      state: 'retry',
      code: code as ReasonCode,
      detail,
      retryAfterMs: namedWaitMs(error) ?? wait,
    };
  }
  if (kind === 'retraction') {
    if (code === 'CONVERSION_ALREADY_RETRACTED') {
      return { state: 'sent', note: `Google had already retracted it (${code})` };
    }
    if (code === 'CONVERSION_NOT_FOUND') return { state: 'failed', code: 'not_held', detail };
  } else if (ALREADY_HELD.has(code)) {
    return { state: 'sent', note: `Google already held it (${code})` };
  }
  if (FINAL_CODES.has(code)) return { state: 'failed', code: code as ReasonCode, detail };
  return { state: 'failed', code: 'rejected_by_platform', detail };
}

/** Rows named in a partial failure get their error; the others were accepted. */
export function readPartialFailure(
  itemCount: number,
  body: unknown,
  kind: SendItem['kind'] = 'conversion',
): ItemResult[] {
  const out: ItemResult[] = times(itemCount, { state: 'sent' } as ItemResult);
  const partial = (body as { partialFailureError?: unknown } | null)?.partialFailureError;
  for (const e of failures(partial)) {
    const index = e.location?.fieldPathElements?.find((p) => p.index !== undefined)?.index;
    if (index !== undefined && index >= 0 && index < itemCount)
      out[index] = googleRowResult(e, kind);
  }
  return out;
}

/**
 * A whole answer of `uploadClickConversions` / `uploadConversionAdjustments`: 200 with
 * partial failures read row by row; an error answer (`{"error":{code,status,message,details}}`)
 * applies to every row, by its first GoogleAdsFailure code where that code decides (a time to
 * retry at, a conversion already held), else by the HTTP status.
 */
export function readGoogleAdsAnswer(response: HttpAnswer, items: SendItem[]): BatchAnswer {
  const kind = items[0]?.kind ?? 'conversion';
  if (response.status === 200) {
    return {
      statusCode: 200,
      results: readPartialFailure(items.length, response.body, kind),
      answer: response.body,
    };
  }
  const err = (response.body as { error?: { status?: string; message?: string } } | null)?.error;
  const first = failures(err)[0];
  const detail =
    `HTTP ${response.status} ${err?.status ?? ''} ${first ? codeOf(first) : ''} ${say(err?.message ?? '', 200)}`
      .replace(/\s+/g, ' ')
      .trim();
  let r = statusResult(response, detail);
  if (first) {
    const row = googleRowResult(first, kind);
    if (row.state === 'sent' || (row.state === 'retry' && row.retryAfterMs !== undefined)) r = row;
    else if (r.state === 'retry' && response.status === 429) {
      const wait = namedWaitMs(first) ?? retryAfterMs(response.headers);
      if (wait !== undefined) r = { ...r, retryAfterMs: wait };
    }
  }
  return { statusCode: response.status, results: times(items.length, r), answer: response.body };
}
