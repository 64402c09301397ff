import type {
  AdPlatformClient,
  ItemResult,
  SendItem,
  SendTarget,
} from '../../domain/conversions/platform.js';
import { type ClientOptions, failureResult, jsonHeaders, request, statusResult } from './http.js';

/** Measurement Protocol: events may be dated at most 72 hours back. */
export const GA4_WINDOW_MS = 72 * 3_600_000;

/** settings.consent as the Measurement Protocol's `consent`; nothing when unspecified. */
function consent(t: SendTarget) {
  const c = t.settings.consent;
  if (c !== 'granted' && c !== 'denied') return {};
  const v = c === 'granted' ? 'GRANTED' : 'DENIED';
  return { consent: { ad_user_data: v, ad_personalization: v } };
}

/** The Measurement Protocol body for one upload: what the tests check field by field. */
export function collectBody(target: SendTarget, i: SendItem) {
  const f = i.facts;
  return {
    client_id: f.gaClientId,
    timestamp_micros: Date.parse(f.conversionAt) * 1000,
    ...consent(target),
    events: [
      {
        name: target.settings.event_name ?? 'close_convert_lead',
        params: {
          // GA4 deduplicates purchase-like events on transaction_id: the same on every retry.
          transaction_id: i.dedupeKey,
          // Ties the event to the visit that brought the caller (its traffic source).
          ...(f.gaSessionId ? { session_id: f.gaSessionId } : {}),
          ...(f.value !== null ? { value: f.value, currency: f.currency } : {}),
        },
      },
    ],
  };
}

/**
 * A request GA4 may have received without answering. `/mp/collect` keeps every request it
 * receives, and counts an event other than `purchase` once per request (transaction_id does
 * not deduplicate it): sending it again would count it twice. So it is recorded sent, with
 * what happened, and not sent again. A request that never left (refused, DNS) is retried.
 */
function unanswered(r: ItemResult, validateOnly: boolean): ItemResult {
  if (validateOnly || r.state !== 'retry') return r;
  if (r.code !== 'no_answer' && r.code !== 'answer_too_large') return r;
  return {
    state: 'sent',
    note: `GA4 received the request but its answer was lost (${r.detail}); not sent again, since GA4 would count it twice`,
  };
}

/**
 * GA4 Measurement Protocol (`/mp/collect`): one client id per request, so one conversion per
 * request. The collect endpoint answers 2xx without checking; `validateOnly` asks the debug
 * endpoint, which answers `validationMessages`.
 */
export function ga4Client(options: ClientOptions): AdPlatformClient {
  const now = options.now ?? Date.now;
  return {
    maxBatch: 1,
    async send(t, items, { validateOnly }) {
      const i = items[0]!;
      if (!validateOnly && now() - Date.parse(i.facts.conversionAt) > GA4_WINDOW_MS) {
        return {
          statusCode: null,
          results: [
            {
              state: 'failed',
              code: 'too_old',
              detail: 'more than 72 hours old (Measurement Protocol limit)',
            },
          ],
        };
      }
      const q = new URLSearchParams({
        measurement_id: t.settings.measurement_id ?? '',
        api_secret: t.secrets.api_secret ?? '',
      });
      try {
        const a = await request(
          `${options.apiBase}/${validateOnly ? 'debug/mp' : 'mp'}/collect?${q}`,
          { headers: jsonHeaders, body: JSON.stringify(collectBody(t, i)) },
          options.timeoutMs,
        );
        if (a.status >= 200 && a.status < 300) {
          const messages =
            (a.body as { validationMessages?: { description?: string }[] } | null)
              ?.validationMessages ?? [];
          const r: ItemResult =
            messages.length === 0
              ? { state: 'sent' }
              : {
                  state: 'failed',
                  code: 'rejected_by_platform',
                  detail: messages.map((m) => m.description).join('; '),
                };
          return { statusCode: a.status, results: [r], answer: a.body };
        }
        return {
          statusCode: a.status,
          results: [statusResult(a, `HTTP ${a.status}`)],
          answer: a.body,
        };
      } catch (err) {
        return { statusCode: null, results: [unanswered(failureResult(err), validateOnly)] };
      }
    },
  };
}
