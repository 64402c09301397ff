import { versionOf } from '../../domain/conversions/api-versions.js';
import type {
  AdPlatformClient,
  ItemResult,
  SendItem,
  SendTarget,
} from '../../domain/conversions/platform.js';
import { type HttpAnswer, jsonHeaders, request, say, statusResult, times } from './http.js';
import { failedRequest, type OAuthClientOptions, oauthClient } from './oauth.js';

/** ApplyOfflineConversions takes at most 1,000 conversions per call. */
export const MICROSOFT_MAX_BATCH = 1_000;
export const MICROSOFT_SCOPE = 'https://ads.microsoft.com/msads.manage offline_access';

interface BatchError {
  Code?: number;
  ErrorCode?: string;
  Message?: string;
  Index?: number;
}

/** One OfflineConversion (Campaign Management) for an upload: what the tests check. */
export function offlineConversion(t: SendTarget, i: SendItem) {
  const f = i.facts;
  return {
    ConversionName: t.settings.conversion_name,
    ConversionTime: f.conversionAt,
    MicrosoftClickId: f.msclkid,
    ...(f.value !== null ? { ConversionValue: f.value, ConversionCurrencyCode: f.currency } : {}),
    // Enhanced conversions: SHA-256 of the E.164 number with its '+', hex.
    ...(f.phoneGoogle ? { HashedPhoneNumber: f.phoneGoogle } : {}),
  };
}

const RETRY_CODES = new Set(['InternalError', 'CallRateExceeded', 'ConcurrentRequestOverLimit']);

function rowResult(e: BatchError): ItemResult {
  const detail = `${e.ErrorCode ?? e.Code ?? 'error'}: ${say(e.Message ?? '', 200)}`;
  return RETRY_CODES.has(e.ErrorCode ?? '')
    ? { state: 'retry', code: 'server_error', detail }
    : { state: 'failed', code: 'rejected_by_platform', detail };
}

/**
 * Microsoft Advertising Campaign Management v13 over REST
 * (`OfflineConversions/Apply`). Microsoft deduplicates on click id, conversion name and
 * conversion time, which stay the same on every retry.
 */
export function microsoftAdsClient(o: OAuthClientOptions): AdPlatformClient {
  async function post(t: SendTarget, body: unknown, retried = false): Promise<HttpAnswer> {
    const creds = oauthClient(t.secrets);
    const token = await o.tokens.get(o.tokenUrl, creds, MICROSOFT_SCOPE);
    const a = await request(
      `${o.apiBase}/CampaignManagement/${versionOf('microsoft_ads', t.settings)!.version}/OfflineConversions/Apply`,
      {
        headers: {
          ...jsonHeaders,
          authorization: `Bearer ${token}`,
          DeveloperToken: t.secrets.developer_token ?? '',
          CustomerId: t.settings.customer_id ?? '',
          CustomerAccountId: t.settings.account_id ?? '',
        },
        body: JSON.stringify(body),
      },
      o.timeoutMs,
    );
    if (a.status === 401 && !retried) {
      o.tokens.forget(o.tokenUrl, creds);
      return post(t, body, true);
    }
    return a;
  }

  return {
    maxBatch: MICROSOFT_MAX_BATCH,
    async send(t, items, { validateOnly }) {
      try {
        if (validateOnly) {
          // No validate-only upload exists: the test proves the credentials and sends nothing.
          await o.tokens.get(o.tokenUrl, oauthClient(t.secrets), MICROSOFT_SCOPE);
          return {
            statusCode: null,
            results: times(items.length, { state: 'sent' }),
            answer: {
              credentials: 'valid',
              note: 'Microsoft Advertising has no validate-only upload; nothing was sent',
            },
          };
        }
        const a = await post(t, {
          OfflineConversions: items.map((i) => offlineConversion(t, i)),
        });
        if (a.status === 200) {
          const out: ItemResult[] = times(items.length, { state: 'sent' } as ItemResult);
          for (const e of (a.body as { PartialErrors?: BatchError[] | null } | null)
            ?.PartialErrors ?? []) {
            if (e.Index !== undefined && e.Index >= 0 && e.Index < items.length)
              out[e.Index] = rowResult(e);
          }
          return { statusCode: 200, results: out, answer: a.body };
        }
        const errs = (a.body as { Errors?: BatchError[] } | null)?.Errors ?? [];
        const detail =
          `HTTP ${a.status} ${errs.map((e) => e.ErrorCode).join(', ')} ${say(errs[0]?.Message ?? '', 200)}`.trim();
        const r =
          errs.some((e) => RETRY_CODES.has(e.ErrorCode ?? '')) && a.status < 500
            ? ({ state: 'retry', code: 'rate_limited', detail } as ItemResult)
            : statusResult(a, detail);
        return { statusCode: a.status, results: times(items.length, r), answer: a.body };
      } catch (err) {
        return failedRequest(err, items.length);
      }
    },
  };
}
