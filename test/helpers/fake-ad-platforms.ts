import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AdPlatformUrls } from '../../src/adapters/ad-platforms/index.js';
import { dataManagerType, protoProblems } from './vendor-definitions.js';

/**
 * Local stand-ins for the four ad platforms and both OAuth token endpoints, on one port of
 * 127.0.0.1. Each follows the vendor's documented request and answer shapes (docs/conversions.md
 * names the documents), including error bodies, and keeps what it accepted so tests can count.
 * `script` lets a test answer a request its own way first (500s, 429 with Retry-After).
 */
export const CREDS = {
  google: {
    developer_token: 'gdev-TOKEN-4f1c9a77d2e8b3aa',
    client_id: 'g-client-1.apps.googleusercontent.com',
    client_secret: 'GOCSPX-g-secret-9d8e7f6a5b4c3d2e',
    refresh_token: '1//g-refresh-0a1b2c3d4e5f6a7b8c9d',
  },
  meta: { access_token: 'EAAG-meta-token-7c6b5a4f3e2d1c0b' },
  microsoft: {
    developer_token: 'msdev-TOKEN-1a2b3c4d5e6f7a8b',
    client_id: 'ms-client-1',
    client_secret: 'ms-secret-0f9e8d7c6b5a4f3e',
    refresh_token: 'M.R3_BAY.ms-refresh-5e4d3c2b1a09',
  },
  ga4: { api_secret: 'ga4-secret-AbCdEfGh12345678' },
};

export interface Seen {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  query: URLSearchParams;
}

type Scripted =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | 'hang'
  /** 200, then a JSON body that never ends (a chunk now and then, until close()). */
  | 'endless'
  /** 200 and a 50 MB JSON body. */
  | 'huge'
  | null;

/** Answered like the platform, then the connection dropped before the answer (a lost reply). */
export type Drop = (s: Seen) => boolean;

export class FakeAdPlatforms {
  readonly requests: Seen[] = [];
  readonly google: any[] = [];
  /** Events the Data Manager API accepted (each with its destination), once per transaction. */
  readonly dataManager: any[] = [];
  readonly googleAdjustments: any[] = [];
  readonly meta: any[] = [];
  readonly metaTest: any[] = [];
  readonly microsoft: any[] = [];
  readonly microsoftAdjustments: any[] = [];
  readonly ga4: any[] = [];
  tokenRefreshes = { google: 0, microsoft: 0 };
  /** The refresh tokens Microsoft's endpoint was given, in order (rotation on). */
  readonly seenRefreshTokens: string[] = [];
  /** Answers a request before the platform logic does; null lets it through. */
  script: (s: Seen, n: number) => Scripted = () => null;
  /** Requests the platform applies but whose answer is lost (the socket is destroyed). */
  dropReply: Drop = () => false;
  /** Microsoft's token endpoint issues a new refresh token each time and retires the old. */
  rotateMicrosoftRefreshTokens = false;
  private microsoftRefreshTokens = new Set([CREDS.microsoft.refresh_token]);
  private rotation = 0;
  /** Data Manager requests accepted, by request id: each event's processing error or null. */
  readonly dataManagerRequests = new Map<
    string,
    { destination: unknown; errors: (string | null)[]; readyAt: number }
  >();
  /** How long Data Manager reports an accepted request PROCESSING (fake clock, ms). */
  dataManagerProcessingMs = 0;
  /** Google answers TOO_RECENT_CONVERSION_ACTION until this time (ms), naming the wait. */
  googleActionReadyAt = 0;
  /** Added before answering: a slow platform for the bench. */
  latencyMs = 0;
  now: () => number = Date.now;
  private validTokens = new Set<string>();
  private tokenSeq = 0;
  private server: http.Server;
  base = '';

  constructor() {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://fake');
        const raw = Buffer.concat(chunks).toString();
        let body: any = raw;
        try {
          body = req.headers['content-type']?.includes('json') ? JSON.parse(raw) : raw;
        } catch {}
        const seen: Seen = {
          path: url.pathname,
          headers: req.headers,
          body,
          query: url.searchParams,
        };
        this.requests.push(seen);
        const answer = () => {
          const scripted = this.script(seen, this.requests.length);
          // Held open until close(): a platform that takes the request and never answers.
          if (scripted === 'hang') return;
          if (scripted === 'endless' || scripted === 'huge') return this.stream(res, scripted);
          const a = scripted ?? this.route(seen);
          if (!scripted && this.dropReply(seen)) {
            res.socket?.destroy();
            return;
          }
          res.writeHead(a.status, { 'content-type': 'application/json', ...(a.headers ?? {}) });
          res.end(a.body === undefined ? '' : JSON.stringify(a.body));
        };
        if (this.latencyMs > 0) setTimeout(answer, this.latencyMs);
        else answer();
      });
    });
  }

  private stream(res: http.ServerResponse, how: 'endless' | 'huge') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"results":[');
    if (how === 'endless') {
      const t = setInterval(() => {
        if (!res.writableEnded && !res.destroyed) res.write('{},');
      }, 200);
      res.on('close', () => clearInterval(t));
      this.timers.push(t);
      return;
    }
    const chunk = '{},'.repeat(100_000);
    let sent = 0;
    const pump = () => {
      while (sent < 50_000_000) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end('{}]}');
    };
    res.on('error', () => {});
    pump();
  }

  private timers: NodeJS.Timeout[] = [];

  async start(): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  urls(): AdPlatformUrls {
    return {
      googleAdsApiBase: `${this.base}/google`,
      googleDataManagerApiBase: `${this.base}/datamanager`,
      googleOauthTokenUrl: `${this.base}/google-oauth/token`,
      metaGraphApiBase: `${this.base}/meta`,
      microsoftAdsApiBase: `${this.base}/microsoft`,
      microsoftOauthTokenUrl: `${this.base}/microsoft-oauth/token`,
      ga4MpBase: `${this.base}/ga4`,
    };
  }

  /** Access tokens stop working (as when Google revokes them early): the client must refresh. */
  expireTokens(): void {
    this.validTokens.clear();
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.server.closeAllConnections();
    this.server.close();
  }

  private route(s: Seen): { status: number; body?: unknown; headers?: Record<string, string> } {
    const p = s.path;
    if (p === '/google-oauth/token') return this.token('google', s);
    if (p === '/microsoft-oauth/token') return this.token('microsoft', s);
    if (p.startsWith('/google/')) return this.googleAds(s);
    if (p.startsWith('/datamanager/')) return this.dataManagerIngest(s);
    if (p.startsWith('/meta/')) return this.metaEvents(s);
    if (p.startsWith('/microsoft/')) return this.microsoftAds(s);
    if (p.startsWith('/ga4/')) return this.ga4Collect(s);
    return { status: 404, body: { error: 'not found' } };
  }

  /** RFC 6749 §5.1/§5.2: access_token + expires_in, or {"error":"invalid_grant"}. */
  private token(which: 'google' | 'microsoft', s: Seen) {
    const f = new URLSearchParams(typeof s.body === 'string' ? s.body : '');
    const c = which === 'google' ? CREDS.google : CREDS.microsoft;
    if (
      f.get('grant_type') !== 'refresh_token' ||
      f.get('client_id') !== c.client_id ||
      f.get('client_secret') !== c.client_secret
    ) {
      return { status: 401, body: { error: 'invalid_client' } };
    }
    const rotating = which === 'microsoft' && this.rotateMicrosoftRefreshTokens;
    const known = rotating
      ? this.microsoftRefreshTokens.has(f.get('refresh_token') ?? '')
      : f.get('refresh_token') === c.refresh_token;
    if (!known) {
      return {
        status: 400,
        body: {
          error: 'invalid_grant',
          error_description:
            'AADSTS70008: The provided authorization code or refresh token has expired due to inactivity.',
        },
      };
    }
    if (which === 'microsoft' && !f.get('scope')?.includes('msads.manage')) {
      return { status: 400, body: { error: 'invalid_scope' } };
    }
    this.tokenRefreshes[which]++;
    const token = `${which === 'google' ? 'ya29' : 'EwB'}.access-${++this.tokenSeq}`;
    this.validTokens.add(token);
    if (rotating) {
      // Microsoft identity platform: each refresh returns a new refresh token; the old retires.
      const next = `M.R3_BAY.rotated-${++this.rotation}-${'x'.repeat(12)}`;
      this.microsoftRefreshTokens.delete(f.get('refresh_token') ?? '');
      this.microsoftRefreshTokens.add(next);
      this.seenRefreshTokens.push(f.get('refresh_token') ?? '');
      return {
        status: 200,
        body: { access_token: token, refresh_token: next, expires_in: 3599, token_type: 'Bearer' },
      };
    }
    return { status: 200, body: { access_token: token, expires_in: 3599, token_type: 'Bearer' } };
  }

  private bearerOk(s: Seen) {
    return this.validTokens.has((s.headers.authorization ?? '').replace(/^Bearer /, ''));
  }

  /** Google Ads API REST: GoogleAdsFailure inside partialFailureError / error.details. */
  private googleAds(s: Seen) {
    const unauth = {
      status: 401,
      body: {
        error: {
          code: 401,
          message: 'Request had invalid authentication credentials.',
          status: 'UNAUTHENTICATED',
        },
      },
    };
    if (!this.bearerOk(s)) return unauth;
    if (s.headers['developer-token'] !== CREDS.google.developer_token) {
      return {
        status: 403,
        body: {
          error: {
            code: 403,
            status: 'PERMISSION_DENIED',
            message: 'The caller does not have permission',
            details: [
              {
                '@type': 'type.googleapis.com/google.ads.googleads.v25.errors.GoogleAdsFailure',
                errors: [
                  {
                    errorCode: { authorizationError: 'DEVELOPER_TOKEN_NOT_APPROVED' },
                    message: 'bad developer token',
                  },
                ],
              },
            ],
          },
        },
      };
    }
    const m =
      /^\/google\/v\d+\/customers\/(\d{10}):(uploadClickConversions|uploadConversionAdjustments)$/.exec(
        s.path,
      );
    if (!m)
      return {
        status: 404,
        body: { error: { code: 404, status: 'NOT_FOUND', message: 'not found' } },
      };
    const adjust = m[2] === 'uploadConversionAdjustments';
    const rows: any[] = adjust ? s.body.conversionAdjustments : s.body.conversions;
    const errors: any[] = [];
    const results = rows.map((r, index) => {
      const e = adjust ? this.googleAdjustmentError(r) : this.googleRowError(r);
      if (e) {
        const [code, message] = typeof e === 'string' ? [e, `The conversion is refused: ${e}`] : e;
        errors.push({
          errorCode: {
            [adjust ? 'conversionAdjustmentUploadError' : 'conversionUploadError']: code,
          },
          message,
          trigger: { stringValue: r.gclid ?? r.orderId },
          location: {
            fieldPathElements: [
              { fieldName: adjust ? 'conversion_adjustments' : 'conversions', index },
              { fieldName: adjust ? 'order_id' : 'gclid' },
            ],
          },
        });
        return {};
      }
      if (!s.body.validateOnly) {
        const store = adjust ? this.googleAdjustments : this.google;
        store.push({ ...r, customerId: m[1] });
      }
      return adjust
        ? {
            conversionAction: r.conversionAction,
            adjustmentType: r.adjustmentType,
            orderId: r.orderId,
          }
        : {
            gclid: r.gclid,
            conversionAction: r.conversionAction,
            conversionDateTime: r.conversionDateTime,
          };
    });
    return {
      status: 200,
      body: {
        results,
        ...(errors.length
          ? {
              partialFailureError: {
                code: 3,
                message: errors.map((e) => e.message).join(', '),
                details: [
                  {
                    '@type': 'type.googleapis.com/google.ads.googleads.v25.errors.GoogleAdsFailure',
                    errors,
                  },
                ],
              },
            }
          : {}),
      },
    };
  }

  /**
   * Data Manager API `events:ingest`: fast-fail (one bad event refuses the request, nothing
   * is kept), the AIP-193 error model with `google.rpc.BadRequest` field violations naming the
   * event, and `{requestId}` on success. A gclid starting `INVALID` is malformed.
   */
  private dataManagerIngest(s: Seen) {
    if (!this.bearerOk(s)) {
      return {
        status: 401,
        body: {
          error: {
            code: 401,
            message: 'Request had invalid authentication credentials.',
            status: 'UNAUTHENTICATED',
          },
        },
      };
    }
    if (s.path === '/datamanager/v1/requestStatus:retrieve') return this.dataManagerStatus(s);
    if (s.path !== '/datamanager/v1/events:ingest') {
      return {
        status: 404,
        body: { error: { code: 404, status: 'NOT_FOUND', message: 'not found' } },
      };
    }
    const events: any[] = s.body.events ?? [];
    const fieldViolations = events.flatMap((e, index) =>
      String(e.adIdentifiers?.gclid ?? '').startsWith('INVALID')
        ? [
            {
              field: `events[${index}].ad_identifiers.gclid`,
              description: 'The gclid is not valid.',
              reason: 'INVALID_FORMAT',
            },
          ]
        : [],
    );
    if (fieldViolations.length > 0) {
      return {
        status: 400,
        body: {
          error: {
            code: 400,
            message: 'Request contains an invalid argument.',
            status: 'INVALID_ARGUMENT',
            details: [
              {
                '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                reason: 'INVALID_FORMAT',
                domain: 'datamanager.googleapis.com',
              },
              { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations },
            ],
          },
        },
      };
    }
    if (s.body.validateOnly) return { status: 200, body: {} };
    const destination = s.body.destinations?.[0];
    // Processed after the answer, as Google does: each event's outcome is only reported.
    const errors = events.map((e): string | null => {
      if (String(e.adIdentifiers?.gclid ?? '').startsWith('TOO_OLD'))
        return 'PROCESSING_ERROR_REASON_EVENT_TOO_OLD';
      const kept = this.dataManager.some(
        (x) =>
          x.transactionId === e.transactionId &&
          x.destination.productDestinationId === destination?.productDestinationId,
      );
      if (kept) return 'PROCESSING_ERROR_REASON_DUPLICATE_TRANSACTION_ID';
      this.dataManager.push({ ...e, destination });
      return null;
    });
    const requestId = `req-${this.requests.length}`;
    this.dataManagerRequests.set(requestId, {
      destination,
      errors,
      readyAt: this.now() + this.dataManagerProcessingMs,
    });
    return { status: 200, body: { requestId } };
  }

  /**
   * Data Manager API `requestStatus:retrieve` (RetrieveRequestStatusResponse of the vendor's
   * protos): PROCESSING until `dataManagerProcessingMs` has passed, then SUCCESS, FAILED or
   * PARTIAL_SUCCESS with error counts per ProcessingErrorReason, never naming an event. Every
   * answer is checked against the vendor's message before it leaves (a 500 naming the
   * problems if it does not conform).
   */
  private dataManagerStatus(s: Seen) {
    const r = this.dataManagerRequests.get(s.query.get('requestId') ?? '');
    if (!r) {
      return {
        status: 404,
        body: { error: { code: 404, status: 'NOT_FOUND', message: 'Request not found.' } },
      };
    }
    const failed = r.errors.filter((e): e is string => e !== null);
    const counts = [...new Set(failed)].map((reason) => ({
      recordCount: String(failed.filter((f) => f === reason).length),
      reason,
    }));
    const processing = this.now() < r.readyAt;
    const status = processing
      ? 'PROCESSING'
      : failed.length === 0
        ? 'SUCCESS'
        : failed.length === r.errors.length
          ? 'FAILED'
          : 'PARTIAL_SUCCESS';
    const body = {
      requestStatusPerDestination: [
        {
          destination: r.destination,
          requestStatus: status,
          ...(!processing && counts.length > 0 ? { errorInfo: { errorCounts: counts } } : {}),
          eventsIngestionStatus: { recordCount: String(r.errors.length) },
        },
      ],
    };
    const problems = protoProblems(dataManagerType('RetrieveRequestStatusResponse'), body);
    if (problems.length > 0) return { status: 500, body: { problems } };
    return { status: 200, body };
  }

  /**
   * A retraction of an order id Google holds (uploaded either way) is applied once; again, it is
   * CONVERSION_ALREADY_RETRACTED; of one it never got, CONVERSION_NOT_FOUND.
   */
  private googleAdjustmentError(r: any): string | [string, string] | null {
    // A Data Manager event's transactionId is the conversion's order id in Google Ads.
    const held =
      this.google.some((c) => c.orderId === r.orderId) ||
      this.dataManager.some((e) => e.transactionId === r.orderId);
    if (!held) return 'CONVERSION_NOT_FOUND';
    if (this.googleAdjustments.some((a) => a.orderId === r.orderId))
      return [
        'CONVERSION_ALREADY_RETRACTED',
        'The conversion was already retracted. This adjustment was not processed.',
      ];
    return null;
  }

  /** Test click ids name the error Google would give. */
  private googleRowError(r: any): string | [string, string] | null {
    if (this.now() < this.googleActionReadyAt) {
      const hours = Math.ceil((this.googleActionReadyAt - this.now()) / 3_600_000);
      return [
        'TOO_RECENT_CONVERSION_ACTION',
        `Can't import events to a conversion action that was just created. Try importing again in ${hours} hours.`,
      ];
    }
    // An order id Google already holds for this action: the retry after a lost reply.
    if (this.google.some((c) => c.orderId === r.orderId))
      return [
        'ORDER_ID_ALREADY_IN_USE',
        'The order ID is already in use by a conversion with the same conversion action.',
      ];
    if (!/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/.test(r.conversionDateTime))
      return 'INVALID_CONVERSION_DATE_TIME';
    for (const code of [
      'EXPIRED_EVENT',
      'TOO_RECENT_EVENT',
      'CLICK_NOT_FOUND',
      'CONVERSION_PRECEDES_EVENT',
    ]) {
      if (String(r.gclid ?? r.gbraid ?? r.wbraid).startsWith(code)) return code;
    }
    return null;
  }

  /** Graph API: {events_received} or {"error":{message,type,code,error_subcode,fbtrace_id}}. */
  private metaEvents(s: Seen) {
    const m = /^\/meta\/v\d+\.0\/(\d+)\/events$/.exec(s.path);
    if (!m) return { status: 404, body: { error: { message: 'Unknown path', code: 803 } } };
    if (s.body.access_token !== CREDS.meta.access_token) {
      return {
        status: 400,
        body: {
          error: {
            message: 'Invalid OAuth access token.',
            type: 'OAuthException',
            code: 190,
            fbtrace_id: 'A1',
          },
        },
      };
    }
    const now = this.now() / 1000;
    for (const e of s.body.data) {
      if (now - e.event_time > 7 * 86_400) {
        return {
          status: 400,
          body: {
            error: {
              message: 'Invalid parameter',
              type: 'OAuthException',
              code: 100,
              error_subcode: 2804003,
              error_user_msg: 'event_time is more than 7 days in the past',
              fbtrace_id: 'A2',
            },
          },
        };
      }
      if (!['phone_call', 'system_generated', 'website'].includes(e.action_source)) {
        return {
          status: 400,
          body: {
            error: {
              message: 'Invalid action_source',
              type: 'OAuthException',
              code: 100,
              fbtrace_id: 'A3',
            },
          },
        };
      }
    }
    const into = s.body.test_event_code ? this.metaTest : this.meta;
    for (const e of s.body.data) {
      if (!into.some((x) => x.event_id === e.event_id && x.event_name === e.event_name))
        into.push({ ...e, pixel: m[1] });
    }
    return {
      status: 200,
      body: { events_received: s.body.data.length, messages: [], fbtrace_id: 'A0' },
    };
  }

  /** Campaign Management REST: a fault is AdApiFaultDetail (`Errors`) or ApiFaultDetail. */
  private microsoftFault(
    status: number,
    errors: { Code: number; ErrorCode: string; Message: string }[],
  ) {
    return {
      status,
      body: {
        TrackingId: 'a1b2c3d4-0000-4000-8000-000000000000',
        Type: 'AdApiFaultDetail',
        Errors: errors.map((e) => ({ ...e, Detail: null, Type: 'AdApiError' })),
      },
    };
  }

  /**
   * Campaign Management REST: `OfflineConversions/Apply` answers PartialErrors (BatchError:
   * Code, ErrorCode, Index, Message); `OfflineConversionAdjustments/Apply` retracts (a
   * duplicate is ignored, as Microsoft documents for conversions); a conversion name this
   * account has no goal for is an ApiFaultDetail with OperationErrors.
   */
  private microsoftAds(s: Seen) {
    if (!this.bearerOk(s)) {
      return this.microsoftFault(401, [
        { Code: 109, ErrorCode: 'AuthenticationTokenExpired', Message: 'The token expired.' },
      ]);
    }
    if (s.headers.developertoken !== CREDS.microsoft.developer_token) {
      return this.microsoftFault(401, [
        { Code: 105, ErrorCode: 'InvalidCredentials', Message: 'Invalid developer token.' },
      ]);
    }
    if (/^\/microsoft\/CampaignManagement\/v\d+\/ConversionGoals\/QueryByIds$/.test(s.path)) {
      // GetConversionGoalsByIds over REST: the account's offline conversion goals.
      return {
        status: 200,
        body: {
          ConversionGoals: [
            { Id: 4040, Name: 'Qualified call', Status: 'Active', Type: 'OfflineConversion' },
          ],
          PartialErrors: null,
        },
      };
    }
    const m =
      /^\/microsoft\/CampaignManagement\/v\d+\/(OfflineConversions|OfflineConversionAdjustments)\/Apply$/.exec(
        s.path,
      );
    if (!m) return { status: 404, body: {} };
    const rows: any[] =
      m[1] === 'OfflineConversions'
        ? s.body.OfflineConversions
        : s.body.OfflineConversionAdjustments;
    if (rows.some((c) => c.ConversionName !== 'Qualified call')) {
      return {
        status: 400,
        body: {
          TrackingId: 'a1b2c3d4-0000-4000-8000-000000000001',
          Type: 'ApiFaultDetail',
          BatchErrors: [],
          OperationErrors: [
            {
              Code: 3803,
              Details: null,
              ErrorCode: 'OfflineConversionNameInvalid',
              Message: 'The conversion name is not valid for this account.',
              Type: 'OperationError',
            },
          ],
        },
      };
    }
    const partial: any[] = [];
    if (m[1] === 'OfflineConversionAdjustments') {
      rows.forEach((c: any, Index: number) => {
        const held = this.microsoft.some(
          (x) => x.MicrosoftClickId === c.MicrosoftClickId && x.ConversionName === c.ConversionName,
        );
        if (!held) {
          partial.push({
            Code: 3826,
            ErrorCode: 'OfflineConversionNotFound',
            Index,
            Message: 'The offline conversion to adjust was not found.',
            Type: 'BatchError',
          });
          return;
        }
        const key = `${c.MicrosoftClickId}|${c.ConversionName}`;
        if (!this.microsoftAdjustments.some((x) => x.key === key))
          this.microsoftAdjustments.push({ ...c, key });
      });
      return { status: 200, body: { PartialErrors: partial.length ? partial : null } };
    }
    rows.forEach((c: any, Index: number) => {
      if (String(c.MicrosoftClickId).startsWith('BAD')) {
        partial.push({
          Code: 3801,
          ErrorCode: 'OfflineConversionMicrosoftClickIdInvalid',
          Index,
          Message: 'The click id is invalid.',
          Type: 'BatchError',
        });
        return;
      }
      const key = `${c.MicrosoftClickId}|${c.ConversionName}|${c.ConversionTime}`;
      if (!this.microsoft.some((x) => x.key === key))
        this.microsoft.push({
          ...c,
          key,
          customer: s.headers.customerid,
          account: s.headers.customeraccountid,
        });
    });
    return { status: 200, body: { PartialErrors: partial.length ? partial : null } };
  }

  /** Measurement Protocol: 204 from /mp/collect; validationMessages from /debug/mp/collect. */
  private ga4Collect(s: Seen) {
    const secretOk = s.query.get('api_secret') === CREDS.ga4.api_secret;
    if (s.path === '/ga4/debug/mp/collect') {
      const messages = secretOk
        ? []
        : [
            {
              fieldPath: 'api_secret',
              description: 'Unknown api_secret',
              validationCode: 'VALUE_INVALID',
            },
          ];
      if (!s.body.client_id)
        messages.push({
          fieldPath: 'client_id',
          description: 'client_id is required',
          validationCode: 'VALUE_REQUIRED',
        });
      return { status: 200, body: { validationMessages: messages } };
    }
    if (s.path !== '/ga4/mp/collect') return { status: 404, body: {} };
    // The real endpoint answers 2xx whatever it received; it keeps only what is valid.
    if (secretOk && s.body.client_id)
      this.ga4.push({ ...s.body, measurement_id: s.query.get('measurement_id') });
    return { status: 204 };
  }
}
