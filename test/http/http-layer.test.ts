/**
 * Issue 7, points 7 and 8, through a real listener: what the HTTP layer answers by itself is in
 * the spec's shape, slow clients get 408 and lose their socket, and a graceful stop resets no one.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import type { HttpLimits } from '../../src/deps.js';
import { checkConformance } from '../helpers/conformance.js';
import { createTenant, type Tenant, useHarness } from '../helpers/harness.js';
import { head, RawClient } from '../helpers/raw-http.js';
import { expectSpecShape } from '../helpers/spec-shape.js';

/** Short limits so the slow-client tests take well under a second each. */
const LIMITS: HttpLimits = { headersTimeoutMs: 300, requestTimeoutMs: 700, shutdownDrainMs: 300 };
/** Node checks the timeouts every quarter of the shorter one; the rest is scheduling slack. */
const SLACK_MS = 75 + 400;

const h = useHarness({ http: LIMITS, listen: 'app' });
let t: Tenant;
let port: number;
beforeAll(async () => {
  t = await createTenant(h, { rateLimit: 1_000_000 });
  port = Number(new URL(h.url).port);
});

const auth = () => ({ authorization: `Bearer ${t.key}` });

/** Sends `request` on a fresh socket; returns the response and the client, whose socket should then close. */
async function exchange(request: string | Buffer) {
  const c = await RawClient.open(port);
  c.write(request);
  const res = await c.response();
  return { res, c };
}

function expectDetail(res: { status: number; headers: Record<string, string>; body: string }) {
  expectSpecShape(res.status, res.headers['content-type'], Buffer.from(res.body));
  expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  return JSON.parse(res.body).detail;
}

describe("responses the HTTP layer makes itself are in the spec's shape", () => {
  it('answers a path that does not percent-decode with 400 invalid_url_encoding', async () => {
    const { res, c } = await exchange(
      head('POST', '/dni/campaigns/%E0%A4%A/buyer-report', { ...auth(), 'content-length': 0 }),
    );
    expect([res.status, expectDetail(res)]).toEqual([400, 'invalid_url_encoding']);
    c.destroy();
  });

  it('answers headers over 16 KiB with 431 and closes the socket', async () => {
    const { res, c } = await exchange(
      head('GET', '/healthz', { 'x-padding': 'x'.repeat(17 * 1024) }),
    );
    expect([res.status, expectDetail(res)]).toEqual([431, 'request_header_fields_too_large']);
    expect(res.headers.connection).toBe('close');
    await c.waitClosed();
    expect(c.error).toBeUndefined();
  });

  it('answers a request line over the budget with 414 uri_too_long and closes the socket', async () => {
    const { res, c } = await exchange(head('GET', `/healthz?${'q'.repeat(17 * 1024)}`));
    expect([res.status, expectDetail(res)]).toEqual([414, 'uri_too_long']);
    await c.waitClosed();
  });

  it('answers a malformed request with 400 bad_request and closes the socket', async () => {
    const { res, c } = await exchange('GET /healthz HTTP/1.1\r\nbad header\r\n\r\n');
    expect([res.status, expectDetail(res)]).toEqual([400, 'bad_request']);
    await c.waitClosed();
  });

  it('answers an HTTP/1.1 request without Host with 400 bad_request and closes the socket', async () => {
    // Node would answer this itself, with an empty body (its requireHostHeader).
    const { res, c } = await exchange('GET /healthz HTTP/1.1\r\n\r\n');
    expect([res.status, expectDetail(res)]).toEqual([400, 'bad_request']);
    expect(res.headers.connection).toBe('close');
    await c.waitClosed();
  });

  it('authenticates a campaign code of any length first, then answers 422 at ["path","campaign_code"]', async () => {
    const code = 'c'.repeat(5_000);
    const path = `/dni/campaigns/${code}/buyer-report`;
    const body = JSON.stringify({ call_id: 'call_x', report_id: 'r', disposition: 'success' });
    const anon = await exchange(
      `${head('POST', path, { 'content-type': 'application/json', 'content-length': body.length }).slice(0, -2)}\r\n${body}`,
    );
    expect([anon.res.status, expectDetail(anon.res)]).toEqual([401, 'invalid_api_key']);
    anon.c.destroy();
    const { res, c } = await exchange(
      `${head('POST', path, { ...auth(), 'content-type': 'application/json', 'content-length': body.length }).slice(0, -2)}\r\n${body}`,
    );
    expect(res.status).toBe(422);
    const detail = expectDetail(res);
    expect(detail).toHaveLength(1);
    expect(detail[0]).toMatchObject({ type: 'string_too_long', loc: ['path', 'campaign_code'] });
    expect(detail[0].input).toBe(code);
    c.destroy();
  });
});

describe('timeouts', () => {
  it('answers headers that never finish with 408 request_timeout and closes the socket in time', async () => {
    const c = await RawClient.open(port);
    const t0 = performance.now();
    c.write('POST /dni/session HTTP/1.1\r\nhost: localhost\r\n');
    const res = await c.response();
    expect([res.status, expectDetail(res)]).toEqual([408, 'request_timeout']);
    const closedAt = await c.waitClosed();
    expect(closedAt - t0).toBeGreaterThanOrEqual(LIMITS.headersTimeoutMs - 10);
    expect(closedAt - t0).toBeLessThan(LIMITS.headersTimeoutMs + SLACK_MS);
  });

  it('answers a valid key with a trickled body with 408 and closes the socket within the request timeout', async () => {
    const body = JSON.stringify({ campaign_code: t.code, visitor_id: 'slow-body-visitor' });
    const c = await RawClient.open(port);
    const t0 = performance.now();
    c.write(
      head('POST', '/dni/session', {
        ...auth(),
        'content-type': 'application/json',
        'content-length': body.length,
      }),
    );
    // One byte every 50 ms: the headers were on time, the body never completes in time.
    let sent = 0;
    const trickle = setInterval(() => {
      if (!c.closed && !c.ended && sent < body.length - 1) c.write(body[sent++] as string);
    }, 50);
    try {
      const res = await c.response();
      expect([res.status, expectDetail(res)]).toEqual([408, 'request_timeout']);
      const closedAt = await c.waitClosed();
      expect(closedAt - t0).toBeGreaterThanOrEqual(LIMITS.requestTimeoutMs - 10);
      expect(closedAt - t0).toBeLessThan(LIMITS.requestTimeoutMs + SLACK_MS);
    } finally {
      clearInterval(trickle);
    }
    const [row] = await h.store.query<{ n: number }>(
      `select count(*)::int as n from dni_sessions where visitor_id = 'slow-body-visitor'`,
      [],
    );
    expect(Number(row?.n)).toBe(0);
  });
});

describe('graceful stop', () => {
  let app: FastifyInstance;
  let appPort: number;
  beforeAll(async () => {
    app = await buildApp(h.deps, LIMITS);
    checkConformance(app, 'public');
    await app.listen({ port: 0, host: '127.0.0.1' });
    appPort = (app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('finishes requests in flight, answers new ones 503, closes idle sockets: no resets', async () => {
    const body = JSON.stringify({ campaign_code: t.code, visitor_id: 'in-flight-visitor' });
    const dniHead = head('POST', '/dni/session', {
      ...auth(),
      'content-type': 'application/json',
      'content-length': body.length,
    });
    // An idle keep-alive socket, a busy one (next request comes during the stop) and one whose
    // request is half sent when the stop begins.
    const idle = await RawClient.open(appPort);
    idle.write(head('GET', '/healthz'));
    expect((await idle.response()).status).toBe(200);
    const busy = await RawClient.open(appPort);
    busy.write(head('GET', '/healthz'));
    expect((await busy.response()).status).toBe(200);
    const inFlight = await RawClient.open(appPort);
    inFlight.write(dniHead + body.slice(0, 10));
    await new Promise((r) => setTimeout(r, 50));

    const clients = [idle, busy, inFlight];
    const t0 = performance.now();
    const closing = app.close();
    try {
      busy.write(head('GET', '/healthz'));
      const refused = await busy.response();
      expect([refused.status, expectDetail(refused)]).toEqual([503, 'service_unavailable']);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.headers.connection).toBe('close');

      inFlight.write(body.slice(10));
      const done = await inFlight.response();
      expect(done.status).toBe(201);
      expect(done.headers.connection).toBe('close');

      await Promise.all([busy.waitClosed(), inFlight.waitClosed(), idle.waitClosed()]);
      await closing;
      for (const c of clients) {
        expect(c.ended, 'closed by a FIN').toBe(true);
        expect(c.error, 'no reset').toBeUndefined();
      }
      // The idle socket was kept for the drain, then closed; the whole stop stays short.
      expect(performance.now() - t0).toBeLessThan(LIMITS.shutdownDrainMs + 1_000);
    } finally {
      for (const c of clients) c.destroy();
    }
  });
});
