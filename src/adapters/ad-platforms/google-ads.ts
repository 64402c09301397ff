import { versionOf } from '../../domain/conversions/api-versions.js';
import { googleDateTime } from '../../domain/conversions/facts.js';
import type { AdPlatformClient, SendItem, SendTarget } from '../../domain/conversions/platform.js';
import { readGoogleAdsAnswer } from './google-ads-answers.js';
import { type HttpAnswer, jsonHeaders, request } from './http.js';
import { failedRequest, type OAuthClientOptions, oauthClient } from './oauth.js';

/** Google Ads API: at most 2,000 conversions per uploadClickConversions request. */
export const GOOGLE_MAX_BATCH = 2_000;

export function conversionActionName(customerId: string, action: string): string {
  return /^\d+$/.test(action) ? `customers/${customerId}/conversionActions/${action}` : action;
}

/** The Google Ads API version a destination's requests use (settings.api_version or the default). */
export const adsApiVersion = (target: SendTarget) =>
  versionOf('google_ads', { ...target.settings, api: 'google_ads_api' })!.version;

/** The Ads API's `Consent` (ad_user_data) from settings.consent; nothing when unspecified. */
function adsConsent(t: SendTarget) {
  const c = t.settings.consent;
  if (c !== 'granted' && c !== 'denied') return {};
  return { consent: { adUserData: c === 'granted' ? 'GRANTED' : 'DENIED' } };
}

/** One ClickConversion (Google Ads API, ConversionUploadService) for an upload. */
export function clickConversion(target: SendTarget, i: SendItem) {
  const f = i.facts;
  const customer = target.settings.customer_id!;
  return {
    ...(f.gclid ? { gclid: f.gclid } : f.gbraid ? { gbraid: f.gbraid } : { wbraid: f.wbraid }),
    conversionAction: conversionActionName(customer, target.settings.conversion_action!),
    conversionDateTime: googleDateTime(
      new Date(f.conversionAt),
      target.settings.time_zone ?? 'UTC',
    ),
    ...(f.value !== null ? { conversionValue: f.value, currencyCode: f.currency } : {}),
    orderId: i.dedupeKey,
    // Enhanced conversions for leads: the caller's number, E.164, SHA-256 (hex).
    ...(f.phoneGoogle ? { userIdentifiers: [{ hashedPhoneNumber: f.phoneGoogle }] } : {}),
    ...adsConsent(target),
  };
}

/** The request bodies of the two calls, as the worker sends them (the tests decode these). */
export function uploadClickConversionsRequest(
  target: SendTarget,
  items: SendItem[],
  validateOnly: boolean,
) {
  return {
    conversions: items.map((i) => clickConversion(target, i)),
    partialFailure: true,
    validateOnly,
  };
}

export function uploadConversionAdjustmentsRequest(
  target: SendTarget,
  items: SendItem[],
  validateOnly: boolean,
  now: Date,
) {
  return {
    conversionAdjustments: items.map((i) => retraction(target, i, now)),
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

/**
 * Google Ads API over REST (`customers/{id}:uploadClickConversions` and
 * `:uploadConversionAdjustments`), with an access token from the refresh token.
 */
export function googleAdsClient(options: OAuthClientOptions): AdPlatformClient {
  async function post(
    t: SendTarget,
    path: string,
    body: unknown,
    retried = false,
  ): Promise<HttpAnswer> {
    const creds = oauthClient(t.secrets);
    const token = await options.tokens.get(options.tokenUrl, creds);
    const a = await request(
      `${options.apiBase}/${adsApiVersion(t)}/customers/${t.settings.customer_id}${path}`,
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
      options.timeoutMs,
    );
    // An access token revoked or expired early: refresh once and ask again.
    if (a.status === 401 && !retried) {
      options.tokens.forget(options.tokenUrl, creds);
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
      return readGoogleAdsAnswer(a, items);
    },
  };
}
