import type { AdPlatformClient, SendItem, SendTarget } from '../../domain/conversions/platform.js';
import { type HttpAnswer, jsonHeaders, request, times } from './http.js';
import { readMicrosoftAnswer } from './microsoft-ads-answers.js';
import { failedRequest, type OAuthClientOptions, oauthClient } from './oauth.js';

/** ApplyOfflineConversions takes at most 1,000 conversions per call. */
export const MICROSOFT_MAX_BATCH = 1_000;
export const MICROSOFT_SCOPE = 'https://ads.microsoft.com/msads.manage offline_access';

/** One OfflineConversionAdjustment that retracts the conversion the item uploaded. */
export function retractAdjustment(t: SendTarget, i: SendItem, now: Date) {
  return {
    AdjustmentType: 'Retract',
    AdjustmentTime: now.toISOString(),
    ConversionName: t.settings.conversion_name,
    MicrosoftClickId: i.facts.msclkid,
  };
}

/**
 * Microsoft Advertising Campaign Management v13 over REST (`OfflineConversions/Apply`, and
 * `OfflineConversionAdjustments/Apply` to retract). Microsoft deduplicates on click id,
 * conversion name and conversion time, which stay the same on every retry.
 */
export function microsoftAdsClient(o: OAuthClientOptions): AdPlatformClient {
  async function post(
    t: SendTarget,
    path: string,
    body: unknown,
    retried = false,
  ): Promise<HttpAnswer> {
    const creds = oauthClient(t.secrets);
    const token = await o.tokens.get(o.tokenUrl, creds, MICROSOFT_SCOPE);
    const a = await request(
      `${o.apiBase}/CampaignManagement/v13/${path}`,
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
      return post(t, path, body, true);
    }
    return a;
  }

  /** The refresh token Microsoft issued in place of the destination's, for the caller to keep. */
  const rotated = (t: SendTarget) => {
    const next = o.tokens.latestRefreshToken(o.tokenUrl, oauthClient(t.secrets));
    return next ? { refreshToken: next } : {};
  };

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
            ...rotated(t),
          };
        }
        const retract = items[0]?.kind === 'retraction';
        const a = retract
          ? await post(t, 'OfflineConversionAdjustments/Apply', {
              OfflineConversionAdjustments: items.map((i) => retractAdjustment(t, i, new Date())),
            })
          : await post(t, 'OfflineConversions/Apply', {
              OfflineConversions: items.map((i) => ({
                ConversionName: t.settings.conversion_name,
                ConversionTime: i.facts.conversionAt,
                MicrosoftClickId: i.facts.msclkid,
                ...(i.facts.value !== null
                  ? { ConversionValue: i.facts.value, ConversionCurrencyCode: i.facts.currency }
                  : {}),
              })),
            });
        return { ...readMicrosoftAnswer(a, items), ...rotated(t) };
      } catch (err) {
        return { ...failedRequest(err, items.length), ...rotated(t) };
      }
    },
  };
}
