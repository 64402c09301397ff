import { versionOf } from '../../domain/conversions/api-versions.js';
import { googleDateTime } from '../../domain/conversions/facts.js';
import type {
  AdPlatformClient,
  ItemResult,
  SendItem,
  SendTarget,
} from '../../domain/conversions/platform.js';
import type { ReasonCode } from '../../domain/conversions/vocabulary.js';
import { type HttpAnswer, jsonHeaders, request, say, statusResult, times } from './http.js';
import { failedRequest, type OAuthClientOptions, oauthClient } from './oauth.js';

/** Google Ads API: at most 2,000 conversions per uploadClickConversions request. */
export const GOOGLE_MAX_BATCH = 2_000;
/** TOO_RECENT_EVENT: Google asks to wait until 6 hours after the click. */
const TOO_RECENT_WAIT_MS = 6 * 3_600_000;

const FINAL_CODES = new Set(['EXPIRED_EVENT', 'CLICK_NOT_FOUND', 'CONVERSION_PRECEDES_EVENT']);
/** A retry of a row Google already holds (same order_id): it counts as sent, once. */
const ALREADY_CODES = new Set(['CLICK_CONVERSION_ALREADY_EXISTS', 'DUPLICATE_ORDER_ID']);

export function conversionActionName(customerId: string, action: string): string {
  return /^\d+$/.test(action) ? `customers/${customerId}/conversionActions/${action}` : action;
}

/** The Google Ads API version a destination's requests use (settings.api_version or the default). */
export const adsApiVersion = (t: SendTarget) =>
  versionOf('google_ads', { ...t.settings, api: 'google_ads_api' })!.version;

/** The Ads API's `Consent` (ad_user_data) from settings.consent; nothing when unspecified. */
function adsConsent(t: SendTarget) {
  const c = t.settings.consent;
  if (c !== 'granted' && c !== 'denied') return {};
  return { consent: { adUserData: c === 'granted' ? 'GRANTED' : 'DENIED' } };
}

/** One ClickConversion (Google Ads API, ConversionUploadService) for an upload. */
export function clickConversion(t: SendTarget, i: SendItem) {
  const f = i.facts;
  const customer = t.settings.customer_id!;
  return {
    ...(f.gclid ? { gclid: f.gclid } : f.gbraid ? { gbraid: f.gbraid } : { wbraid: f.wbraid }),
    conversionAction: conversionActionName(customer, t.settings.conversion_action!),
    conversionDateTime: googleDateTime(new Date(f.conversionAt), t.settings.time_zone ?? 'UTC'),
    ...(f.value !== null ? { conversionValue: f.value, currencyCode: f.currency } : {}),
    orderId: i.dedupeKey,
    // Enhanced conversions for leads: the caller's number, E.164, SHA-256 (hex).
    ...(f.phoneGoogle ? { userIdentifiers: [{ hashedPhoneNumber: f.phoneGoogle }] } : {}),
    ...adsConsent(t),
  };
}

/** The request bodies of the two calls, as the worker sends them (the tests decode these). */
export function uploadClickConversionsRequest(
  t: SendTarget,
  items: SendItem[],
  validateOnly: boolean,
) {
  return {
    conversions: items.map((i) => clickConversion(t, i)),
    partialFailure: true,
    validateOnly,
  };
}

export function uploadConversionAdjustmentsRequest(
  t: SendTarget,
  items: SendItem[],
  validateOnly: boolean,
  now: Date,
) {
  return {
    conversionAdjustments: items.map((i) => retraction(t, i, now)),
    partialFailure: true,
    validateOnly,
  };
}

function retraction(t: SendTarget, i: SendItem, now: Date) {
  return {
    conversionAction: conversionActionName(t.settings.customer_id!, t.settings.conversion_action!),
    adjustmentType: 'RETRACTION',
    orderId: i.dedupeKey,
    adjustmentDateTime: googleDateTime(now, t.settings.time_zone ?? 'UTC'),
  };
}

interface GoogleError {
  errorCode?: Record<string, string>;
  message?: string;
  location?: { fieldPathElements?: { fieldName?: string; index?: number }[] };
}

/** The GoogleAdsFailure errors inside a status (partialFailureError, or an error answer). */
function failures(status: unknown): GoogleError[] {
  const details = (status as { details?: { errors?: GoogleError[] }[] } | null)?.details ?? [];
  return details.flatMap((d) => d.errors ?? []);
}

const codeOf = (e: GoogleError) => Object.values(e.errorCode ?? {})[0] ?? 'UNKNOWN';

function rowResult(e: GoogleError): ItemResult {
  const code = codeOf(e);
  const detail = `${code}: ${e.message ?? ''}`.trim();
  if (code === 'TOO_RECENT_EVENT') {
    return { state: 'retry', code, detail, retryAfterMs: TOO_RECENT_WAIT_MS };
  }
  if (ALREADY_CODES.has(code)) return { state: 'sent' };
  if (FINAL_CODES.has(code)) return { state: 'failed', code: code as ReasonCode, detail };
  return { state: 'failed', code: 'rejected_by_platform', detail };
}

/** Rows named in a partial failure get their error; the others were accepted. */
export function readPartialFailure(n: number, body: unknown): ItemResult[] {
  const out: ItemResult[] = times(n, { state: 'sent' } as ItemResult);
  const partial = (body as { partialFailureError?: unknown } | null)?.partialFailureError;
  for (const e of failures(partial)) {
    const index = e.location?.fieldPathElements?.find((p) => p.index !== undefined)?.index;
    if (index !== undefined && index >= 0 && index < n) out[index] = rowResult(e);
  }
  return out;
}

/**
 * Google Ads API over REST (`customers/{id}:uploadClickConversions` and
 * `:uploadConversionAdjustments`), with an access token from the refresh token.
 */
export function googleAdsClient(o: OAuthClientOptions): AdPlatformClient {
  async function post(
    t: SendTarget,
    path: string,
    body: unknown,
    retried = false,
  ): Promise<HttpAnswer> {
    const creds = oauthClient(t.secrets);
    const token = await o.tokens.get(o.tokenUrl, creds);
    const a = await request(
      `${o.apiBase}/${adsApiVersion(t)}/customers/${t.settings.customer_id}${path}`,
      {
        headers: {
          ...jsonHeaders,
          authorization: `Bearer ${token}`,
          'developer-token': t.secrets.developer_token ?? '',
          ...(t.settings.login_customer_id
            ? { 'login-customer-id': t.settings.login_customer_id }
            : {}),
        },
        body: JSON.stringify(body),
      },
      o.timeoutMs,
    );
    // An access token revoked or expired early: refresh once and ask again.
    if (a.status === 401 && !retried) {
      o.tokens.forget(o.tokenUrl, creds);
      return post(t, path, body, true);
    }
    return a;
  }

  return {
    maxBatch: GOOGLE_MAX_BATCH,
    async send(t, items, { validateOnly }) {
      const retract = items[0]?.kind === 'retraction';
      const body = retract
        ? uploadConversionAdjustmentsRequest(t, items, validateOnly, new Date())
        : uploadClickConversionsRequest(t, items, validateOnly);
      let a: HttpAnswer;
      try {
        a = await post(
          t,
          retract ? ':uploadConversionAdjustments' : ':uploadClickConversions',
          body,
        );
      } catch (err) {
        return failedRequest(err, items.length);
      }
      if (a.status === 200) {
        return {
          statusCode: 200,
          results: readPartialFailure(items.length, a.body),
          answer: a.body,
        };
      }
      const err = (a.body as { error?: { status?: string; message?: string } } | null)?.error;
      const first = failures(err)[0];
      const detail =
        `HTTP ${a.status} ${err?.status ?? ''} ${first ? codeOf(first) : ''} ${say(err?.message ?? '', 200)}`
          .replace(/\s+/g, ' ')
          .trim();
      return {
        statusCode: a.status,
        results: times(items.length, statusResult(a, detail)),
        answer: a.body,
      };
    },
  };
}
