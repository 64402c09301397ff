import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Static } from 'typebox';
import { beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { clientTypes } from '../../packages/client/scripts/client-types.js';
import {
  type BuyerReportRequest,
  createTrackingClient,
  type DniSession,
  type DniSessionRequest,
  type OutboundTouchRequest,
  type TrackingError,
} from '../../packages/client/src/index.js';
import type { TouchRequest } from '../../src/domain/outbound/touch-request.js';
import type { BuyerReportBody } from '../../src/routes/buyer-report/schema.js';
import type { DniSessionBody, DniSessionResponse } from '../../src/routes/dni-session/schema.js';
import { createTenant, type Tenant, useHarness } from '../helpers/harness.js';
import { stoppedServiceUrl, useLocalServers } from '../helpers/local-servers.js';
import { outboundTenant, WEEKDAY_MORNING_ET } from '../helpers/outbound.js';
import { recordCall } from '../helpers/reports.js';

// @call-tracking/client (packages/client) against a server on a real socket.
// Its types are generated from the OpenAPI document when the package is built
// (npm install / npm run build); `npm run typecheck` checks this file against
// them, so a change to the document that the client's users would feel (a
// renamed field, a closed enum) fails here before it reaches them.
const h = useHarness();
let baseUrl: string;
let t: Tenant;
const listen = useLocalServers();

beforeAll(async () => {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  t = await createTenant(h);
});

describe('generated types', () => {
  it('are what the served /openapi.json generates (else rebuild: npm run build:kit)', async () => {
    const served = (await (await fetch(`${baseUrl}/openapi.json`)).json()) as object;
    const built = await readFile(
      new URL('../../packages/client/src/generated/openapi.ts', import.meta.url),
      'utf8',
    );
    expect(built).toBe(await clientTypes(served));
  });

  it('are the service’s own request and response types', () => {
    expectTypeOf<DniSessionRequest>().toEqualTypeOf<Static<typeof DniSessionBody>>();
    expectTypeOf<DniSession>().toEqualTypeOf<Static<typeof DniSessionResponse>>();
    expectTypeOf<BuyerReportRequest>().toEqualTypeOf<Static<typeof BuyerReportBody>>();
    expectTypeOf<Required<OutboundTouchRequest>>().toEqualTypeOf<Required<TouchRequest>>();
  });
});

describe('the three endpoints', () => {
  it('creates a DNI session, and the same visitor gets it back', async () => {
    const client = createTrackingClient({ baseUrl, apiKey: t.key });
    const first = await client.createDniSession({
      campaign_code: t.code,
      visitor_id: 'kit-client-1',
      landing_url: 'https://www.acme.example/?gclid=KIT',
    });
    if (!first.ok) throw new Error(JSON.stringify(first.error));
    expect(first.status).toBe(201);
    expect(t.numbers).toContain(first.data.tracking_number);
    expect(first.data.dni_session_id).toMatch(/^ds_/);
    const again = await client.createDniSession({
      campaign_code: t.code,
      visitor_id: 'kit-client-1',
    });
    expect(again.ok && again.data.dni_session_id).toBe(first.data.dni_session_id);
  });

  it('posts a buyer report, and a repeat is the same event', async () => {
    const client = createTrackingClient({ baseUrl, apiKey: t.key });
    const call_id = await recordCall(h, t);
    const body = { call_id, report_id: 'kit-r1', disposition: 'success' } as const;
    const first = await client.postBuyerReport(t.code, body);
    const again = await client.postBuyerReport(t.code, body);
    if (!first.ok || !again.ok) throw new Error('report refused');
    expect([first.status, first.data.created, again.status, again.data.created]).toEqual([
      201,
      true,
      200,
      false,
    ]);
    expect(again.data.event_id).toBe(first.data.event_id);
  });

  it('executes an outbound touch, with an idempotency_key of its own', async () => {
    h.clock.set(WEEKDAY_MORNING_ET);
    const o = await outboundTenant(h);
    const client = createTrackingClient({ baseUrl, apiKey: o.key });
    const res = await client.executeOutboundTouch(o.code, {
      to_e164: o.contact,
      channel: 'call',
      consent_basis: 'pewc',
    });
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    expect([res.status, res.data.status]).toEqual([202, 'queued']);
    const [row] = await h.store.query<{ idempotency_key: string | null }>(
      'select idempotency_key from outbound_touches where id = $1',
      [res.data.touch_id],
    );
    expect(row?.idempotency_key).toMatch(/^kit:[0-9a-f-]{36}$/);
  });
});

describe('errors are values', () => {
  it('a refused key, a validation error, a timeout and a refused connection', async () => {
    const anon = await createTrackingClient({
      baseUrl,
      apiKey: `svc_live_${'0'.repeat(40)}`,
    }).createDniSession({ campaign_code: t.code, visitor_id: 'v' });
    expect(anon).toMatchObject({
      ok: false,
      error: { kind: 'http', status: 401, code: 'invalid_api_key' },
    });

    const bad = await createTrackingClient({ baseUrl, apiKey: t.key }).createDniSession({
      campaign_code: 'toolong',
      visitor_id: 'v',
    });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'http', status: 422, code: null } });

    const hanging = await listen(createServer(() => {}));
    const started = performance.now();
    const slow = await createTrackingClient({
      baseUrl: hanging,
      apiKey: t.key,
      timeoutMs: 300,
    }).createDniSession({ campaign_code: t.code, visitor_id: 'v' });
    expect(slow).toEqual({ ok: false, error: { kind: 'timeout', timeoutMs: 300 } });
    expect(performance.now() - started).toBeLessThan(5000);

    const goneUrl = await stoppedServiceUrl();
    const refused = await createTrackingClient({
      baseUrl: goneUrl,
      apiKey: t.key,
      retries: 0,
    }).createDniSession({ campaign_code: t.code, visitor_id: 'v' });
    expect(refused.ok || refused.error.kind).toBe('network');
  });

  it('a 4xx is not retried', async () => {
    let requests = 0;
    const counting = await listen(
      createServer((_req, res) => {
        requests++;
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"detail":"campaign_not_found"}');
      }),
    );
    const res = await createTrackingClient({ baseUrl: counting, apiKey: t.key }).postBuyerReport(
      'zz',
      { call_id: 'c', report_id: 'r', disposition: 'success' },
    );
    expect(res).toMatchObject({ ok: false, error: { status: 404, code: 'campaign_not_found' } });
    expect(requests).toBe(1);
  });
});

/**
 * A proxy that passes the first request on to the service, then cuts the
 * connection before the answer: the work is done but the client cannot know.
 * Later requests pass through.
 */
async function cutFirstAnswer(): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const url = await listen(
    createServer(async (req, res) => {
      requests++;
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const upstream = await fetch(`${baseUrl}${req.url}`, {
        method: req.method,
        headers: { authorization: req.headers.authorization!, 'content-type': 'application/json' },
        body: Buffer.concat(chunks),
      });
      const text = await upstream.text();
      if (requests === 1) return req.socket.destroy();
      const headers: Record<string, string> = {};
      upstream.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'transfer-encoding') headers[k] = v;
      });
      res.writeHead(upstream.status, headers);
      res.end(text);
    }),
  );
  return { url, requests: () => requests };
}

describe('retries', () => {
  it('an outbound touch whose answer was lost is retried with its key: replayed, placed once', async () => {
    h.clock.set(WEEKDAY_MORNING_ET);
    const o = await outboundTenant(h);
    const proxy = await cutFirstAnswer();
    const res = await createTrackingClient({
      baseUrl: proxy.url,
      apiKey: o.key,
    }).executeOutboundTouch(o.code, { to_e164: o.contact, channel: 'sms', consent_basis: 'pewc' });
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    expect(proxy.requests()).toBe(2);
    expect(res.headers.get('idempotent-replayed')).toBe('true');
    const rows = await h.store.query<{ n: string }>(
      'select count(*) as n from outbound_touches where org_id = $1',
      [o.orgId],
    );
    expect(Number(rows[0]?.n)).toBe(1);
  });

  it('a DNI session whose answer was lost is asked again: the visitor keeps one session', async () => {
    const proxy = await cutFirstAnswer();
    const res = await createTrackingClient({ baseUrl: proxy.url, apiKey: t.key }).createDniSession({
      campaign_code: t.code,
      visitor_id: 'kit-retry-1',
    });
    expect(res.ok).toBe(true);
    expect(proxy.requests()).toBe(2);
    const rows = await h.store.query('select 1 from dni_sessions where visitor_id = $1', [
      'kit-retry-1',
    ]);
    expect(rows).toHaveLength(1);
  });
});

/** Never called: `npm run typecheck` fails if the generated types loosen. */
function typeChecks(client: ReturnType<typeof createTrackingClient>, e: TrackingError) {
  // @ts-expect-error: unknown keys are refused by the service, and by the types
  void client.createDniSession({ campaign_code: 'a', visitor_id: 'v', color: 'red' });
  // @ts-expect-error: disposition is success or rejected
  void client.postBuyerReport('a', { call_id: 'c', report_id: 'r', disposition: 'maybe' });
  // @ts-expect-error: channel is required
  void client.executeOutboundTouch('a', { to_e164: '+14155550123', consent_basis: 'pewc' });
  if (e.kind === 'http') return e.status;
  // @ts-expect-error: only an HTTP error has a status
  return e.status;
}
void typeChecks;
