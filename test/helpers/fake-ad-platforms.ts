import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AdPlatformUrls } from '../../src/adapters/ad-platforms/index.js';

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
  | null;

export class FakeAdPlatforms {
  readonly requests: Seen[] = [];
  readonly google: any[] = [];
  /** Events the Data Manager API accepted (each with its destination), once per transaction. */
  readonly dataManager: any[] = [];
  readonly googleAdjustments: any[] = [];
  readonly meta: any[] = [];
  readonly metaTest: any[] = [];
  readonly microsoft: any[] = [];
  readonly ga4: any[] = [];
  tokenRefreshes = { google: 0, microsoft: 0 };
  /** Answers a request before the platform logic does; null lets it through. */
  script: (s: Seen, n: number) => Scripted = () => null;
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
          const a = scripted ?? this.route(seen);
          res.writeHead(a.status, { 'content-type': 'application/json', ...(a.headers ?? {}) });
          res.end(a.body === undefined ? '' : JSON.stringify(a.body));
        };
        if (this.latencyMs > 0) setTimeout(answer, this.latencyMs);
        else answer();
      });
    });
  }

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
    if (f.get('refresh_token') !== c.refresh_token)
      return { status: 400, body: { error: 'invalid_grant' } };
    if (which === 'microsoft' && !f.get('scope')?.includes('msads.manage')) {
      return { status: 400, body: { error: 'invalid_scope' } };
    }
    this.tokenRefreshes[which]++;
    const token = `${which === 'google' ? 'ya29' : 'EwB'}.access-${++this.tokenSeq}`;
    this.validTokens.add(token);
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
      const code = adjust ? null : this.googleRowError(r);
      if (code) {
        errors.push({
          errorCode: { conversionUploadError: code },
          message: `The conversion is refused: ${code}`,
          trigger: { stringValue: r.gclid },
          location: {
            fieldPathElements: [{ fieldName: 'conversions', index }, { fieldName: 'gclid' }],
          },
        });
        return {};
      }
      if (!s.body.validateOnly) {
        const store = adjust ? this.googleAdjustments : this.google;
        if (!store.some((x) => x.orderId === r.orderId)) store.push({ ...r, customerId: m[1] });
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
    if (!s.body.validateOnly) {
      const destination = s.body.destinations?.[0];
      for (const e of events) {
        const kept = this.dataManager.some(
          (x) =>
            x.transactionId === e.transactionId &&
            x.destination.productDestinationId === destination?.productDestinationId,
        );
        if (!kept) this.dataManager.push({ ...e, destination });
      }
    }
    return {
      status: 200,
      body: s.body.validateOnly ? {} : { requestId: `req-${this.requests.length}` },
    };
  }

  /** Test click ids name the error Google would give. */
  private googleRowError(r: any): string | null {
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

  /** Campaign Management REST: PartialErrors (BatchError: Code, ErrorCode, Index, Message). */
  private microsoftAds(s: Seen) {
    if (!this.bearerOk(s)) {
      return {
        status: 401,
        body: {
          Errors: [
            { Code: 109, ErrorCode: 'AuthenticationTokenExpired', Message: 'The token expired.' },
          ],
        },
      };
    }
    if (s.headers.developertoken !== CREDS.microsoft.developer_token) {
      return {
        status: 401,
        body: {
          Errors: [
            { Code: 105, ErrorCode: 'InvalidCredentials', Message: 'Invalid developer token.' },
          ],
        },
      };
    }
    if (s.path !== '/microsoft/CampaignManagement/v13/OfflineConversions/Apply')
      return { status: 404, body: {} };
    const partial: any[] = [];
    s.body.OfflineConversions.forEach((c: any, Index: number) => {
      if (String(c.MicrosoftClickId).startsWith('BAD')) {
        partial.push({
          Code: 3801,
          ErrorCode: 'OfflineConversionMicrosoftClickIdInvalid',
          Index,
          Message: 'The click id is invalid.',
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
