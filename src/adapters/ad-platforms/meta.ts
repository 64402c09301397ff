import { versionOf } from '../../domain/conversions/api-versions.js';
import type {
  AdPlatformClient,
  BatchAnswer,
  ItemResult,
  SendItem,
  SendTarget,
} from '../../domain/conversions/platform.js';
import {
  type ClientOptions,
  jsonHeaders,
  request,
  requestFailed,
  retryAfterMs,
  say,
  statusResult,
  times,
} from './http.js';

/** The Graph API version a destination's requests use (settings.api_version or the default). */
export const metaVersion = (target: SendTarget) => versionOf('meta', target.settings)!.version;
/** Conversions API: at most 1,000 events per request. */
export const META_MAX_BATCH = 1_000;
/** Events whose event_time is more than 7 days old are refused. */
export const META_WINDOW_MS = 7 * 86_400_000;
/** Graph API error codes that mean "slow down" (application, user, page, custom rate limits). */
const THROTTLE_CODES = new Set([4, 17, 32, 613, 80004]);
const AUTH_CODES = new Set([102, 190]);

/**
 * settings.consent as Meta's data processing options: `denied` asks for Limited Data Use with
 * the location left to Meta (country and state 0), `granted` says explicitly that no option
 * applies, `unspecified` sends nothing.
 */
function processingOptions(t: SendTarget) {
  if (t.settings.consent === 'denied') {
    return {
      data_processing_options: ['LDU'],
      data_processing_options_country: 0,
      data_processing_options_state: 0,
    };
  }
  return t.settings.consent === 'granted' ? { data_processing_options: [] as string[] } : {};
}

/** One server event of the Conversions API for an upload (the tests normalise it with Meta's SDK). */
export function event(target: SendTarget, i: SendItem) {
  const f = i.facts;
  return {
    event_name: target.settings.event_name ?? 'Lead',
    event_time: Math.floor(Date.parse(f.conversionAt) / 1000),
    // Meta deduplicates on (event_name, event_id): the same id on every retry.
    event_id: i.dedupeKey,
    action_source: 'phone_call',
    user_data: {
      ...(f.fbc ? { fbc: f.fbc } : {}),
      ...(f.fbp ? { fbp: f.fbp } : {}),
      ...(f.phoneMeta ? { ph: [f.phoneMeta] } : {}),
    },
    ...(f.value !== null ? { custom_data: { value: f.value, currency: f.currency } } : {}),
    ...processingOptions(target),
  };
}

interface GraphError {
  message?: string;
  code?: number;
  error_subcode?: number;
  error_user_msg?: string;
}

function errorResult(status: number, headers: Headers, e: GraphError | undefined): ItemResult {
  const detail = `HTTP ${status} code ${e?.code ?? '?'}${e?.error_subcode ? `/${e.error_subcode}` : ''}: ${say(e?.error_user_msg ?? e?.message ?? '', 200)}`;
  if (e?.code !== undefined && THROTTLE_CODES.has(e.code)) {
    const wait = retryAfterMs(headers);
    return {
      state: 'retry',
      code: 'rate_limited',
      detail,
      ...(wait !== undefined ? { retryAfterMs: wait } : {}),
    };
  }
  if (e?.code !== undefined && AUTH_CODES.has(e.code))
    return { state: 'failed', code: 'auth_failed', detail };
  return statusResult({ status, headers, body: null }, detail);
}

/**
 * Meta Conversions API (`POST /{pixel_id}/events`). A request is all or nothing, so when a
 * batch is refused for a reason that is not a rate limit, its events are sent again one by
 * one to learn which of them the platform refuses.
 */
export function metaClient(options: ClientOptions): AdPlatformClient {
  const now = options.now ?? Date.now;

  async function post(t: SendTarget, items: SendItem[], testCode?: string): Promise<BatchAnswer> {
    let a: Awaited<ReturnType<typeof request>>;
    try {
      a = await request(
        `${options.apiBase}/${metaVersion(t)}/${t.settings.pixel_id}/events`,
        {
          headers: jsonHeaders,
          body: JSON.stringify({
            data: items.map((i) => event(t, i)),
            access_token: t.secrets.access_token,
            ...(testCode ? { test_event_code: testCode } : {}),
          }),
        },
        options.timeoutMs,
      );
    } catch (err) {
      return requestFailed(err, items.length);
    }
    if (a.status === 200)
      return { statusCode: 200, results: times(items.length, { state: 'sent' }), answer: a.body };
    const r = errorResult(a.status, a.headers, (a.body as { error?: GraphError } | null)?.error);
    if (items.length > 1 && r.state === 'failed' && r.code === 'rejected_by_platform') {
      const results: ItemResult[] = [];
      for (const i of items) results.push(...(await post(t, [i], testCode)).results);
      return { statusCode: a.status, results, answer: a.body };
    }
    return { statusCode: a.status, results: times(items.length, r), answer: a.body };
  }

  return {
    maxBatch: META_MAX_BATCH,
    async send(t, items, { validateOnly }) {
      if (validateOnly && !t.settings.test_event_code) {
        return {
          statusCode: null,
          results: times(items.length, {
            state: 'failed',
            code: 'rejected_by_platform',
            detail:
              'set settings.test_event_code (Events Manager → Test events) to test without recording',
          }),
        };
      }
      // Meta refuses the whole request for one event past its window: leave those out.
      const results: (ItemResult | null)[] = items.map((i) =>
        now() - Date.parse(i.facts.conversionAt) > META_WINDOW_MS
          ? {
              state: 'failed',
              code: 'too_old',
              detail: "event_time is more than 7 days old (Meta's limit)",
            }
          : null,
      );
      const fresh = items.filter((_, j) => results[j] === null);
      if (fresh.length === 0) return { statusCode: null, results: results as ItemResult[] };
      const answer = await post(t, fresh, validateOnly ? t.settings.test_event_code : undefined);
      let k = 0;
      return {
        statusCode: answer.statusCode,
        results: results.map((r) => r ?? answer.results[k++]!),
        answer: answer.answer,
      };
    },
  };
}
