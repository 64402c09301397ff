import { versionOf } from '../../domain/conversions/api-versions.js';
import type {
  AdPlatformClient,
  BatchAnswer,
  ItemResult,
  SendItem,
  SendTarget,
} from '../../domain/conversions/platform.js';
import { googleRowResult } from './google-ads-answers.js';
import { type RequestStatusAnswer, requestStatusResults } from './google-data-manager-status.js';
import { type HttpAnswer, jsonHeaders, request, say, statusResult, times } from './http.js';
import { failedRequest, type OAuthClientOptions, oauthClient } from './oauth.js';

/** The OAuth scope a refresh token needs for `events:ingest` (IngestionService's annotation). */
export const DATA_MANAGER_SCOPE = 'https://www.googleapis.com/auth/datamanager';
/** IngestEventsRequest.events: "At most 2000 Event resources can be sent in a single request". */
export const DATA_MANAGER_MAX_BATCH = 2_000;

/** The conversion action id: the setting is an id or a resource name ending in one. */
const actionId = (action: string) => action.split('/').pop() ?? action;

const account = (id: string) => ({ accountType: 'GOOGLE_ADS', accountId: id });

/** Data Manager's `Consent` from settings.consent; nothing when unspecified. */
function consent(t: SendTarget) {
  const c = t.settings.consent;
  if (c !== 'granted' && c !== 'denied') return {};
  const status = c === 'granted' ? 'CONSENT_GRANTED' : 'CONSENT_DENIED';
  return { consent: { adUserData: status, adPersonalization: status } };
}

/** One Event: the click id, the call's start (RFC 3339), the call id, value and hashed phone. */
function event(i: SendItem) {
  const f = i.facts;
  return {
    // Google deduplicates offline conversions on (conversion action, transaction id).
    transactionId: i.dedupeKey,
    eventTimestamp: new Date(f.conversionAt).toISOString(),
    adIdentifiers: f.gclid
      ? { gclid: f.gclid }
      : f.gbraid
        ? { gbraid: f.gbraid }
        : { wbraid: f.wbraid },
    // The conversion is a phone call (EventSource.PHONE: "generated from a phone call").
    eventSource: 'PHONE',
    ...(f.value !== null ? { conversionValue: f.value, currency: f.currency } : {}),
    // Enhanced conversions for leads: SHA-256 of the E.164 number, hex (encoding: HEX).
    ...(f.phoneGoogle ? { userData: { userIdentifiers: [{ phoneNumber: f.phoneGoogle }] } } : {}),
  };
}

/** The IngestEventsRequest body (proto3 JSON) of one batch: what the tests decode. */
export function ingestEventsRequest(target: SendTarget, items: SendItem[], validateOnly: boolean) {
  const s = target.settings;
  return {
    destinations: [
      {
        operatingAccount: account(s.customer_id!),
        ...(s.login_customer_id ? { loginAccount: account(s.login_customer_id) } : {}),
        productDestinationId: actionId(s.conversion_action!),
      },
    ],
    events: items.map(event),
    ...consent(target),
    validateOnly,
    encoding: 'HEX',
  };
}

interface RpcStatus {
  code?: number;
  status?: string;
  message?: string;
  details?: {
    '@type'?: string;
    reason?: string;
    fieldViolations?: { field?: string; description?: string; reason?: string }[];
  }[];
}

/** Reasons that mean the same transaction is already held: the conversion is there. */
const ALREADY = new Set(['ALREADY_EXISTS', 'PROCESSING_ERROR_REASON_DUPLICATE_TRANSACTION_ID']);

/**
 * The events a fast-fail error names (`BadRequest.fieldViolations[].field`, such as
 * `events[3].ad_identifiers.gclid`), each with its reason; -1 for violations of the request.
 */
export function violations(status: RpcStatus | undefined) {
  const out: { index: number; reason: string; description: string }[] = [];
  for (const d of status?.details ?? []) {
    for (const v of d.fieldViolations ?? []) {
      const m = /(?:^|\.)events\[(\d+)\]/.exec(v.field ?? '');
      out.push({
        index: m ? Number(m[1]) : -1,
        reason: v.reason ?? 'INVALID_ARGUMENT',
        description: `${v.field ?? ''}: ${v.description ?? ''}`,
      });
    }
  }
  return out;
}

const reasonOf = (e: RpcStatus | undefined) =>
  e?.details?.find((d) => d.reason)?.reason ?? e?.status ?? 'UNKNOWN';

/**
 * Google's Data Manager API (`POST {base}/v1/events:ingest`). A request is fast-fail: one bad
 * event refuses the whole request and Google processes none of it, so the events a refusal
 * names are failed with Google's reason and the rest are sent again without them, once.
 * Success answers only a request id; Google processes the events afterwards.
 */
// Long on purpose: the client's methods share `post` and its one resend without the refused events.
export function dataManagerClient(options: OAuthClientOptions): AdPlatformClient {
  /** `events:ingest` (a body) or `requestStatus:retrieve` (a GET), refreshing a refused token once. */
  async function call(
    t: SendTarget,
    path: string,
    body?: unknown,
    retried = false,
  ): Promise<HttpAnswer> {
    const creds = oauthClient(t.secrets);
    const token = await options.tokens.get(options.tokenUrl, creds);
    const version = versionOf('google_ads', { ...t.settings, api: 'data_manager' })!.version;
    const a = await request(
      `${options.apiBase}/${version}/${path}`,
      body === undefined
        ? { method: 'GET', headers: { authorization: `Bearer ${token}` } }
        : {
            headers: { ...jsonHeaders, authorization: `Bearer ${token}` },
            body: JSON.stringify(body),
          },
      options.timeoutMs,
    );
    if (a.status === 401 && !retried) {
      options.tokens.forget(options.tokenUrl, creds);
      return call(t, path, body, true);
    }
    return a;
  }
  const post = (t: SendTarget, body: unknown) => call(t, 'events:ingest', body);

  async function send(
    t: SendTarget,
    items: SendItem[],
    validateOnly: boolean,
    split: boolean,
  ): Promise<BatchAnswer> {
    let a: HttpAnswer;
    try {
      a = await post(t, ingestEventsRequest(t, items, validateOnly));
    } catch (err) {
      return failedRequest(err, items.length);
    }
    if (a.status === 200) {
      // Google processes the events later and reports it under this id (`check`).
      const requestId = (a.body as { requestId?: unknown } | null)?.requestId;
      const result: ItemResult =
        !validateOnly && typeof requestId === 'string' && requestId !== ''
          ? { state: 'accepted', requestId }
          : { state: 'sent' };
      return { statusCode: 200, results: times(items.length, result), answer: a.body };
    }
    const err = (a.body as { error?: RpcStatus } | null)?.error;
    const reason = reasonOf(err);
    const detail = errorDetail(a, err);
    const named = violations(err).filter((v) => v.index >= 0 && v.index < items.length);
    if (a.status === 400 && named.length > 0) {
      const results: (ItemResult | null)[] = times(items.length, null);
      for (const v of named) {
        // The reason is read as a Google Ads row code would be (TOO_RECENT_* waits, others fail).
        results[v.index] = ALREADY.has(v.reason)
          ? { state: 'sent', note: `Google already held it (${v.reason})` }
          : googleRowResult(
              { errorCode: { reason: v.reason }, message: v.description },
              items[v.index]!.kind,
            );
      }
      const rest = items.filter((_, j) => results[j] === null);
      if (rest.length > 0 && split) {
        const again = await send(t, rest, validateOnly, false);
        let k = 0;
        return {
          statusCode: again.statusCode,
          results: results.map((r) => r ?? again.results[k++]!),
          answer: a.body,
        };
      }
      return {
        statusCode: a.status,
        results: results.map((r) => r ?? statusResult(a, detail)),
        answer: a.body,
      };
    }
    if (ALREADY.has(reason)) {
      return {
        statusCode: a.status,
        results: times(items.length, { state: 'sent' }),
        answer: a.body,
      };
    }
    return {
      statusCode: a.status,
      results: times(items.length, statusResult(a, detail)),
      answer: a.body,
    };
  }

  /** `GET requestStatus:retrieve?requestId=…`: how Google processed an accepted request. */
  async function check(t: SendTarget, requestId: string, items: SendItem[]): Promise<BatchAnswer> {
    let a: HttpAnswer;
    try {
      a = await call(t, `requestStatus:retrieve?requestId=${encodeURIComponent(requestId)}`);
    } catch (err) {
      // A retry checks the same request again (a read writes nothing).
      return failedRequest(err, items.length);
    }
    if (a.status === 200) {
      return {
        statusCode: 200,
        results: requestStatusResults(a.body as RequestStatusAnswer, items.length),
        answer: a.body,
      };
    }
    const err = (a.body as { error?: RpcStatus } | null)?.error;
    if (a.status === 404) {
      // Google took the events and keeps no report of the request any more: sent, as before.
      const note = `Google accepted request ${requestId} and no longer reports on it`;
      return { statusCode: 404, results: times(items.length, { state: 'sent', note }) };
    }
    return {
      statusCode: a.status,
      results: times(items.length, statusResult(a, errorDetail(a, err))),
      answer: a.body,
    };
  }

  return {
    maxBatch: DATA_MANAGER_MAX_BATCH,
    send: (t, items, { validateOnly }) => send(t, items, validateOnly, true),
    check,
  };
}

/** Google's error in words, with a hint at the scope when the credentials were refused. */
function errorDetail(a: HttpAnswer, err: RpcStatus | undefined): string {
  // A refused token or account most often means the refresh token lacks Data Manager's scope.
  const hint =
    a.status === 401 || a.status === 403
      ? ` (the refresh token needs the scope ${DATA_MANAGER_SCOPE}, and its user access to the operating account)`
      : '';
  return `HTTP ${a.status} ${err?.status ?? ''} ${reasonOf(err)} ${say(err?.message ?? '', 200)}`
    .replace(/\s+/g, ' ')
    .trim()
    .concat(hint);
}

/**
 * A google_ads destination's client: conversions through the Data Manager API unless the
 * destination chose `api: "google_ads_api"`. Retractions always go through the Google Ads API's
 * `uploadConversionAdjustments` (the Data Manager API has no retraction; docs/conversions.md);
 * only destinations that can retract (src/domain/conversions/retractability.ts: with a
 * developer token) are handed one.
 */
export function googleClient(
  dataManager: AdPlatformClient,
  adsApi: AdPlatformClient,
): AdPlatformClient {
  return {
    maxBatch: Math.min(dataManager.maxBatch, adsApi.maxBatch),
    send(t, items, o) {
      if (items[0]?.kind === 'retraction') return adsApi.send(t, items, o);
      return (t.settings.api === 'google_ads_api' ? adsApi : dataManager).send(t, items, o);
    },
    // Only the Data Manager API answers `accepted`, so only its requests are checked.
    check: (t, requestId, items) => dataManager.check!(t, requestId, items),
  };
}
