import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  googleRowResult,
  namedWaitMs,
  readGoogleAdsAnswer,
} from '../../../src/adapters/ad-platforms/google-ads-answers.js';
import {
  failureResult,
  MAX_ANSWER_BYTES,
  request,
} from '../../../src/adapters/ad-platforms/http.js';
import { readMicrosoftAnswer } from '../../../src/adapters/ad-platforms/microsoft-ads-answers.js';
import type { SendItem } from '../../../src/domain/conversions/platform.js';
import { REDACTED, scrubberFor, scrubDeep } from '../../../src/domain/conversions/scrub.js';

const item = (kind: SendItem['kind'] = 'conversion'): SendItem => ({
  uploadId: 'cup_1',
  kind,
  dedupeKey: 'call_1',
  facts: { callId: 'call_1', conversionAt: '2026-03-02T15:00:00Z', value: null, currency: null },
});
const g = (code: string, message = '', key = 'conversionUploadError') => ({
  errorCode: { [key]: code },
  message,
});

describe('Google Ads answers → upload states', () => {
  it.each([
    ['ORDER_ID_ALREADY_IN_USE', 'conversion', { state: 'sent' }],
    ['CLICK_CONVERSION_ALREADY_EXISTS', 'conversion', { state: 'sent' }],
    ['DUPLICATE_ORDER_ID', 'conversion', { state: 'sent' }],
    ['CONVERSION_ALREADY_RETRACTED', 'retraction', { state: 'sent' }],
    ['CONVERSION_NOT_FOUND', 'retraction', { state: 'failed', code: 'not_held' }],
    ['EXPIRED_EVENT', 'conversion', { state: 'failed', code: 'EXPIRED_EVENT' }],
    ['CLICK_NOT_FOUND', 'conversion', { state: 'failed', code: 'CLICK_NOT_FOUND' }],
    ['UNPARSEABLE_GCLID', 'conversion', { state: 'failed', code: 'rejected_by_platform' }],
    // "Already retracted" means nothing for a conversion: a refusal like any other.
    [
      'CONVERSION_ALREADY_RETRACTED',
      'conversion',
      { state: 'failed', code: 'rejected_by_platform' },
    ],
  ] as const)('%s on a %s', (code, kind, want) => {
    expect(googleRowResult(g(code), kind)).toMatchObject(want);
  });

  it('TOO_RECENT_* wait the time Google names, else the six hours its documents say', () => {
    const named = g(
      'TOO_RECENT_CONVERSION_ACTION',
      "Can't import events to a conversion action that was just created. Try importing again in 4 hours.",
    );
    expect(googleRowResult(named, 'conversion')).toMatchObject({
      state: 'retry',
      code: 'TOO_RECENT_CONVERSION_ACTION',
      retryAfterMs: 4 * 3_600_000,
    });
    expect(googleRowResult(g('TOO_RECENT_EVENT'), 'conversion')).toMatchObject({
      state: 'retry',
      retryAfterMs: 6 * 3_600_000,
    });
    expect(namedWaitMs({ details: { quotaErrorDetails: { retryDelay: '90s' } } })).toBe(90_000);
    expect(namedWaitMs({ message: 'retry after 30 minutes' })).toBe(1_800_000);
  });

  it('a whole-request error whose failure is TOO_RECENT_CONVERSION_ACTION is retried, not final', () => {
    const a = {
      status: 400,
      headers: new Headers(),
      body: {
        error: {
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: 'Request contains an invalid argument.',
          details: [
            { errors: [g('TOO_RECENT_CONVERSION_ACTION', 'Try importing again in 2 hours.')] },
          ],
        },
      },
    };
    expect(readGoogleAdsAnswer(a, [item(), item()]).results).toEqual([
      expect.objectContaining({ state: 'retry', retryAfterMs: 7_200_000 }),
      expect.objectContaining({ state: 'retry', retryAfterMs: 7_200_000 }),
    ]);
  });
});

describe('Microsoft fault bodies, every documented shape', () => {
  const answer = (status: number, body: unknown, n = 2, kind: SendItem['kind'] = 'conversion') =>
    readMicrosoftAnswer(
      { status, headers: new Headers(), body },
      Array.from({ length: n }, () => item(kind)),
    ).results;

  it('OperationErrors (ApiFaultDetail) apply to every row, with their code and words', () => {
    const r = answer(400, {
      TrackingId: 't',
      Type: 'ApiFaultDetail',
      BatchErrors: [],
      OperationErrors: [
        { Code: 3803, ErrorCode: 'OfflineConversionNameInvalid', Message: 'bad name' },
      ],
    });
    expect(r).toHaveLength(2);
    for (const x of r) {
      expect(x).toMatchObject({ state: 'failed', code: 'rejected_by_platform' });
      expect((x as { detail: string }).detail).toBe(
        'HTTP 400 OfflineConversionNameInvalid (3803): bad name',
      );
    }
  });

  it('BatchErrors name their rows; Errors (AdApiFaultDetail) are credentials', () => {
    const r = answer(400, {
      Type: 'ApiFaultDetail',
      BatchErrors: [
        {
          Code: 3801,
          ErrorCode: 'OfflineConversionMicrosoftClickIdInvalid',
          Index: 1,
          Message: 'x',
        },
      ],
    });
    expect(r[1]).toMatchObject({
      state: 'failed',
      detail: expect.stringContaining('ClickIdInvalid'),
    });
    const auth = answer(401, {
      Type: 'AdApiFaultDetail',
      Errors: [{ Code: 105, ErrorCode: 'InvalidCredentials', Message: 'Invalid credentials.' }],
    });
    expect(auth[0]).toMatchObject({ state: 'failed', code: 'auth_failed' });
    expect((auth[0] as { detail: string }).detail).toContain('InvalidCredentials');
  });

  it('a fault nested under Detail, and one with only a Message, are read too', () => {
    const nested = answer(500, {
      Detail: { OperationErrors: [{ ErrorCode: 'InternalError', Message: 'oops' }] },
    });
    expect(nested[0]).toMatchObject({ state: 'retry', code: 'server_error' });
    expect((nested[0] as { detail: string }).detail).toContain('InternalError');
    const bare = answer(400, { Message: 'The request is invalid.' });
    expect((bare[0] as { detail: string }).detail).toBe('HTTP 400 The request is invalid.');
    const throttled = answer(400, { OperationErrors: [{ ErrorCode: 'CallRateExceeded' }] });
    expect(throttled[0]).toMatchObject({ state: 'retry', code: 'rate_limited' });
  });

  it('PartialErrors in a 200; a retraction already done or never held', () => {
    const r = answer(
      200,
      {
        PartialErrors: [
          { ErrorCode: 'OfflineConversionAlreadyRetracted', Index: 0 },
          { ErrorCode: 'OfflineConversionNotFound', Index: 1 },
        ],
      },
      3,
      'retraction',
    );
    expect(r).toEqual([
      {
        state: 'sent',
        note: 'Microsoft had already retracted it (OfflineConversionAlreadyRetracted)',
      },
      expect.objectContaining({ state: 'failed', code: 'not_held' }),
      { state: 'sent' },
    ]);
  });
});

describe('scrubbing what a platform says', () => {
  const scrub = scrubberFor({
    access_token: 'EAAG-meta-token-7c6b5a4f3e2d1c0b',
    api_secret: 'a+b/c secret',
  });

  it('takes out the destination’s secrets, as given and encoded', () => {
    expect(scrub('Invalid OAuth access token EAAG-meta-token-7c6b5a4f3e2d1c0b.')).toBe(
      `Invalid OAuth access token ${REDACTED}.`,
    );
    expect(scrub('q=a%2Bb%2Fc%20secret&x=1')).toBe(`q=${REDACTED}&x=1`);
  });

  it('takes out anything shaped like a credential, issued at run time', () => {
    for (const [text, want] of [
      [
        'Invalid OAuth access token EAAGm0PX4ZCpsBAO9ZBZAbcdef.',
        `Invalid OAuth access token ${REDACTED}.`,
      ],
      ['token ya29.a0AfH6SMBx-y_z was revoked', `token ${REDACTED} was revoked`],
      ['Authorization: Bearer abc.def.ghi-123456', `Authorization: ${REDACTED}`],
      ['refresh 1//0gLxyzabcdefghij expired', `refresh ${REDACTED} expired`],
      ['{"access_token":"zzz999"}', `{"access_token":"${REDACTED}"}`],
      ['EwBwA8l6BAAUO9chh8cJscQLmU+LSWpbnr0vmwwAAQ', REDACTED],
    ] as const) {
      expect(scrub(text)).toBe(want);
    }
    expect(scrub('CLICK_NOT_FOUND: The click could not be found.')).toBe(
      'CLICK_NOT_FOUND: The click could not be found.',
    );
  });

  it('scrubs every string of a parsed answer', () => {
    expect(
      scrubDeep({ error: { message: ['EAAG-meta-token-7c6b5a4f3e2d1c0b'] }, n: 1 }, scrub),
    ).toEqual({
      error: { message: [REDACTED] },
      n: 1,
    });
  });
});

describe('reading answers: bounded, whole, named', () => {
  let server: http.Server;
  let base = '';
  const routes: Record<string, (res: http.ServerResponse) => void> = {
    '/huge': (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = 'x'.repeat(1 << 20);
      let n = 0;
      const pump = () => {
        while (n++ < 50) if (!res.write(chunk)) return void res.once('drain', pump);
        res.end();
      };
      res.on('error', () => {});
      pump();
    },
    '/declared': (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(50e6) });
      res.write('{');
    },
    '/endless': (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"results":[');
      const t = setInterval(() => res.write('{},'), 50);
      res.on('close', () => clearInterval(t));
    },
    '/cut': (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"results":[{}');
      setTimeout(() => res.socket?.destroy(), 20);
    },
    '/half-json': (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"results":[{},');
    },
    '/redirect': (res) => {
      res.writeHead(302, { location: 'https://elsewhere.example/login?token=abc' });
      res.end();
    },
    '/drop': (res) => res.socket?.destroy(),
  };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => routes[req.url ?? '']?.(res));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const outcome = async (path: string, timeoutMs = 2_000) => {
    try {
      await request(path.startsWith('http') ? path : `${base}${path}`, { body: '{}' }, timeoutMs);
      return null;
    } catch (err) {
      return failureResult(err);
    }
  };

  it(`an answer over ${MAX_ANSWER_BYTES} bytes is a retry, read no further`, async () => {
    expect(await outcome('/huge')).toMatchObject({ state: 'retry', code: 'answer_too_large' });
    expect(await outcome('/declared')).toMatchObject({ state: 'retry', code: 'answer_too_large' });
  });

  it('a body that never ends within the deadline, or is cut off, is a retry, never sent', async () => {
    expect(await outcome('/endless', 500)).toMatchObject({
      state: 'retry',
      code: 'no_answer',
      detail: 'the answer did not end within 500 ms',
    });
    expect(await outcome('/cut')).toMatchObject({ state: 'retry', code: 'no_answer' });
    expect(await outcome('/half-json')).toMatchObject({
      state: 'retry',
      code: 'no_answer',
      detail: 'the answer is not complete JSON (cut short)',
    });
  });

  it('each failure is named for what happened', async () => {
    const redirect = await outcome('/redirect');
    expect(redirect).toMatchObject({ state: 'failed', code: 'redirected' });
    expect((redirect as { detail: string }).detail).toBe(
      'the platform answered 302, a redirect to elsewhere.example, which is not followed',
    );
    expect(await outcome('/drop')).toMatchObject({ state: 'retry', code: 'no_answer' });
    const closed = http.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    expect(await outcome(`http://127.0.0.1:${port}/`)).toEqual({
      state: 'retry',
      code: 'network_error',
      detail: 'connection refused',
    });
  });
});
