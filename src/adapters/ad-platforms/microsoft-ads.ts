import { versionOf } from '../../domain/conversions/api-versions.js';
import type {
  AdPlatformClient,
  BatchAnswer,
  ItemResult,
  SendItem,
  SendTarget,
} from '../../domain/conversions/platform.js';
import { type HttpAnswer, jsonHeaders, request, times } from './http.js';
import { readMicrosoftAnswer } from './microsoft-ads-answers.js';
import { failedRequest, type OAuthClientOptions, oauthClient } from './oauth.js';

/** ApplyOfflineConversions takes at most 1,000 conversions per call. */
export const MICROSOFT_MAX_BATCH = 1_000;
export const MICROSOFT_SCOPE = 'https://ads.microsoft.com/msads.manage offline_access';

/** One OfflineConversionAdjustment that retracts the conversion the item uploaded. */
export function retractAdjustment(target: SendTarget, i: SendItem, now: Date) {
  return {
    AdjustmentType: 'Retract',
    AdjustmentTime: now.toISOString(),
    ConversionName: target.settings.conversion_name,
    MicrosoftClickId: i.facts.msclkid,
  };
}

/** One OfflineConversion (Campaign Management) for an upload: what the tests check. */
export function offlineConversion(target: SendTarget, i: SendItem) {
  const f = i.facts;
  return {
    ConversionName: target.settings.conversion_name,
    ConversionTime: f.conversionAt,
    MicrosoftClickId: f.msclkid,
    ...(f.value !== null ? { ConversionValue: f.value, ConversionCurrencyCode: f.currency } : {}),
    // Enhanced conversions: SHA-256 of the E.164 number with its '+', hex.
    ...(f.phoneGoogle ? { HashedPhoneNumber: f.phoneGoogle } : {}),
  };
}

/** The test's verdict: the goal named settings.conversion_name is among the account's. */
function goalCheck(t: SendTarget, a: HttpAnswer, n: number): BatchAnswer {
  if (a.status !== 200) return readMicrosoftAnswer(a, times(n, TEST_ITEM));
  const goals =
    (a.body as { ConversionGoals?: { Name?: string; Status?: string }[] | null } | null)
      ?.ConversionGoals ?? [];
  const goal = goals.find((g) => g?.Name === t.settings.conversion_name);
  const r: ItemResult = goal
    ? { state: 'sent' }
    : {
        state: 'failed',
        code: 'rejected_by_platform',
        detail: `the account has no offline conversion goal named ${JSON.stringify(t.settings.conversion_name)} (it has ${goals.length})`,
      };
  return {
    statusCode: 200,
    results: times(n, r),
    answer: { conversion_goal: goal ? { name: goal.Name, status: goal.Status ?? null } : null },
  };
}

const TEST_ITEM: SendItem = {
  uploadId: 'test',
  kind: 'conversion',
  dedupeKey: 'test',
  facts: { callId: 'test', conversionAt: new Date(0).toISOString(), value: null, currency: null },
};

/**
 * Microsoft Advertising Campaign Management v13 over REST (`OfflineConversions/Apply`, and
 * `OfflineConversionAdjustments/Apply` to retract). Microsoft deduplicates on click id,
 * conversion name and conversion time, which stay the same on every retry.
 */
export function microsoftAdsClient(options: OAuthClientOptions): AdPlatformClient {
  async function post(
    t: SendTarget,
    path: string,
    body: unknown,
    retried = false,
  ): Promise<HttpAnswer> {
    const creds = oauthClient(t.secrets);
    const token = await options.tokens.get(options.tokenUrl, creds, MICROSOFT_SCOPE);
    const a = await request(
      `${options.apiBase}/CampaignManagement/${versionOf('microsoft_ads', t.settings)!.version}/${path}`,
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
      options.timeoutMs,
    );
    if (a.status === 401 && !retried) {
      options.tokens.forget(options.tokenUrl, creds);
      return post(t, path, body, true);
    }
    return a;
  }

  /** The refresh token Microsoft issued in place of the destination's, for the caller to keep. */
  const rotated = (t: SendTarget) => {
    const next = options.tokens.latestRefreshToken(options.tokenUrl, oauthClient(t.secrets));
    return next ? { refreshToken: next } : {};
  };

  return {
    maxBatch: MICROSOFT_MAX_BATCH,
    async send(t, items, { validateOnly }) {
      try {
        if (validateOnly) {
          // No validate-only upload exists: reading the account's offline conversion goals
          // checks the tokens, customer and account, and that the goal to upload to exists.
          const a = await post(t, 'ConversionGoals/QueryByIds', {
            ConversionGoalIds: null,
            ConversionGoalTypes: 'OfflineConversion',
          });
          return { ...goalCheck(t, a, items.length), ...rotated(t) };
        }
        const retract = items[0]?.kind === 'retraction';
        const a = retract
          ? await post(t, 'OfflineConversionAdjustments/Apply', {
              OfflineConversionAdjustments: items.map((i) => retractAdjustment(t, i, new Date())),
            })
          : await post(t, 'OfflineConversions/Apply', {
              OfflineConversions: items.map((i) => offlineConversion(t, i)),
            });
        return { ...readMicrosoftAnswer(a, items), ...rotated(t) };
      } catch (err) {
        return { ...failedRequest(err, items.length), ...rotated(t) };
      }
    },
  };
}
