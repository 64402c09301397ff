import type { BatchAnswer, ItemResult, SendItem } from '../../domain/conversions/platform.js';
import { type HttpAnswer, say, statusResult, times } from './http.js';

/**
 * What Microsoft Advertising's Campaign Management answers mean for each row. A 200 carries
 * `PartialErrors` (BatchError: Code, ErrorCode, Index, Message); a fault carries, depending on
 * its kind, `OperationErrors` (ApiFaultDetail: the whole operation), `BatchErrors` (rows by
 * Index) or `Errors` (AdApiFaultDetail: credentials, headers), at the top of the body or under
 * `Detail`; an answer with none of these may still say `Message`.
 */
export interface MicrosoftError {
  Code?: number;
  ErrorCode?: string;
  Message?: string;
  Index?: number | null;
}

const RETRY_CODES = new Set(['InternalError', 'CallRateExceeded', 'ConcurrentRequestOverLimit']);

/** Every error list of a fault body, wherever the kind of fault puts it. */
export function faultErrors(body: unknown): { rows: MicrosoftError[]; whole: MicrosoftError[] } {
  const rows: MicrosoftError[] = [];
  const whole: MicrosoftError[] = [];
  const visit = (b: unknown, depth: number) => {
    if (!b || typeof b !== 'object' || depth > 2) return;
    const o = b as Record<string, unknown>;
    const list = (k: string) => (Array.isArray(o[k]) ? (o[k] as MicrosoftError[]) : []);
    for (const e of [...list('BatchErrors'), ...list('PartialErrors')]) {
      (typeof e?.Index === 'number' ? rows : whole).push(e);
    }
    whole.push(...list('OperationErrors'), ...list('Errors'));
    for (const k of ['Detail', 'detail', 'Error', 'error']) visit(o[k], depth + 1);
  };
  visit(body, 0);
  return { rows, whole };
}

const words = (e: MicrosoftError) =>
  `${e.ErrorCode ?? e.Code ?? 'error'}${e.Code !== undefined && e.ErrorCode ? ` (${e.Code})` : ''}: ${say(e.Message ?? '', 200)}`;

/** One row's result from a BatchError, for a conversion or a retraction. */
export function microsoftRowResult(error: MicrosoftError, kind: SendItem['kind']): ItemResult {
  const code = error.ErrorCode ?? '';
  const detail = words(error);
  if (RETRY_CODES.has(code)) return { state: 'retry', code: 'server_error', detail };
  if (kind === 'retraction' && /AlreadyRetracted/i.test(code)) {
    return { state: 'sent', note: `Microsoft had already retracted it (${code})` };
  }
  if (kind === 'retraction' && /ConversionNotFound/i.test(code)) {
    return { state: 'failed', code: 'not_held', detail };
  }
  if (kind === 'conversion' && /AlreadyExists|Duplicate/i.test(code)) {
    return { state: 'sent', note: `Microsoft already held it (${code})` };
  }
  return { state: 'failed', code: 'rejected_by_platform', detail };
}

/** A whole answer of `OfflineConversions/Apply` or `OfflineConversionAdjustments/Apply`. */
export function readMicrosoftAnswer(response: HttpAnswer, items: SendItem[]): BatchAnswer {
  const kind = items[0]?.kind ?? 'conversion';
  const { rows, whole } = faultErrors(response.body);
  const n = items.length;
  if (response.status === 200 && whole.length === 0) {
    const out: ItemResult[] = times(n, { state: 'sent' } as ItemResult);
    for (const e of rows) {
      const i = e.Index as number;
      if (i >= 0 && i < n) out[i] = microsoftRowResult(e, kind);
    }
    return { statusCode: 200, results: out, answer: response.body };
  }
  const message = (response.body as { Message?: unknown; message?: unknown } | null) ?? {};
  const detail =
    `HTTP ${response.status} ${whole.map(words).join('; ') || say(message.Message ?? message.message ?? '', 200)}`.trim();
  let r: ItemResult =
    whole.some((e) => RETRY_CODES.has(e.ErrorCode ?? '')) && response.status < 500
      ? { state: 'retry', code: 'rate_limited', detail }
      : statusResult(response, detail);
  // A fault that names rows (BatchErrors): those get their own error, the others the fault's.
  if (whole.length === 0 && rows.length > 0) {
    const out: ItemResult[] = times(n, r);
    for (const e of rows) {
      const i = e.Index as number;
      if (i >= 0 && i < n) out[i] = microsoftRowResult(e, kind);
    }
    return { statusCode: response.status, results: out, answer: response.body };
  }
  if (whole.length === 1 && r.state === 'failed') {
    const only = microsoftRowResult(whole[0]!, kind);
    if (only.state === 'sent') r = only;
  }
  return { statusCode: response.status, results: times(n, r), answer: response.body };
}
