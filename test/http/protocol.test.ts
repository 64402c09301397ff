import type { LightMyRequestResponse } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT } from '../../src/deps.js';
import { createTenant, type Harness, json, type Tenant, useHarness } from '../helpers/harness.js';
import { allowedValues, deref, responseSchema } from '../helpers/openapi.js';
import { MISSING_CODE, ROUTES, rowCounts, send } from '../helpers/routes.js';

const h: Harness = useHarness();
let t: Tenant;
beforeAll(async () => {
  t = await createTenant(h, { rateLimit: 1_000_000 });
});

/** A JSON object of exactly `bytes` bytes, valid for `route` apart from its size. */
function bodyOfSize(fields: Record<string, unknown>, bytes: number): string {
  const base = JSON.stringify({ ...fields, pad: '' });
  return JSON.stringify({ ...fields, pad: 'x'.repeat(bytes - base.length) });
}

describe.each(ROUTES)('$name', (route) => {
  const auth = () => ({ authorization: `Bearer ${t.key}` });

  it('answers a body over 64 KiB with 413 payload_too_large and writes nothing', async () => {
    const before = await rowCounts(h.store);
    const payload = bodyOfSize(route.body(t.code), BODY_LIMIT + 1);
    expect(Buffer.byteLength(payload)).toBe(64 * 1024 + 1);
    const res = await send(h.app, route, t.code, { ...auth(), payload });
    expect([res.statusCode, res.body]).toEqual([413, '{"detail":"payload_too_large"}']);
    expect(res.headers['content-type']).toBe('application/json');
    expect(await rowCounts(h.store)).toEqual(before);
  });

  it('reads a body of exactly 64 KiB', async () => {
    const payload = bodyOfSize(route.body(MISSING_CODE), BODY_LIMIT);
    const res = await send(h.app, route, MISSING_CODE, { ...auth(), payload });
    expect(res.statusCode).toBe(422);
    expect(json(res).detail.map((d: { type: string; loc: string[] }) => [d.type, d.loc])).toEqual([
      ['extra_forbidden', ['body', 'pad']],
    ]);
  });

  it.each(['GET', 'PUT', 'DELETE', 'PATCH'] as const)(
    'answers %s with 405 Method Not Allowed and Allow: POST',
    async (method) => {
      const res = await send(h.app, route, t.code, { ...auth(), method });
      expect([res.statusCode, res.body]).toEqual([405, '{"detail":"Method Not Allowed"}']);
      expect(res.headers.allow).toBe('POST');
      expect(res.headers['content-type']).toBe('application/json');
    },
  );
});

describe('unknown routes', () => {
  it.each([
    ['GET', '/'],
    ['POST', '/dni/sessions'],
    ['POST', '/DNI/session'],
    ['POST', '/dni/session/'],
    ['POST', '/dni/campaigns/abc/buyer-report/extra'],
    ['POST', '/tracking/campaigns/abc'],
    ['GET', '/admin/orgs'],
  ] as const)('answers %s %s with 404 Not Found', async (method, url) => {
    const res = await h.app.inject({ method, url, headers: { authorization: `Bearer ${t.key}` } });
    expect([res.statusCode, res.body]).toEqual([404, '{"detail":"Not Found"}']);
    expect(res.headers['content-type']).toBe('application/json');
  });
});

describe('headers on every response', () => {
  const responses = async (headers: Record<string, string> = {}) => {
    const route = ROUTES[0]!;
    const key = { authorization: `Bearer ${t.key}` };
    return {
      201: await send(h.app, route, t.code, { ...key, headers }),
      400: await send(h.app, route, t.code, {
        ...key,
        headers,
        payload: Buffer.from([0x7b, 0xff]),
      }),
      401: await send(h.app, route, t.code, { headers }),
      404: await send(h.app, route, MISSING_CODE, { ...key, headers }),
      405: await h.app.inject({ method: 'GET', url: '/dni/session', headers }),
      413: await send(h.app, route, t.code, {
        ...key,
        headers,
        payload: 'x'.repeat(BODY_LIMIT + 1),
      }),
      422: await send(h.app, route, t.code, { ...key, headers, payload: '{}' }),
      healthz: await h.app.inject({ method: 'GET', url: '/healthz', headers }),
      openapi: await h.app.inject({ method: 'GET', url: '/openapi.json', headers }),
      unknown: await h.app.inject({ method: 'GET', url: '/nope', headers }),
    } as Record<string, LightMyRequestResponse>;
  };

  it('is application/json without a charset', async () => {
    for (const [name, res] of Object.entries(await responses())) {
      expect([name, res.headers['content-type']]).toEqual([name, 'application/json']);
      if (/^\d+$/.test(name)) expect([name, res.statusCode]).toEqual([name, Number(name)]);
    }
  });

  it('echoes a safe X-Request-Id of up to 128 characters', async () => {
    for (const id of ['abc-123', 'A.b_c:d-9', 'r'.repeat(128)]) {
      for (const [name, res] of Object.entries(await responses({ 'x-request-id': id }))) {
        expect([name, res.headers['x-request-id']]).toEqual([name, id]);
      }
    }
  });

  it('replaces a missing, long or unsafe X-Request-Id with a generated one', async () => {
    const seen = new Set<string>();
    for (const id of [undefined, 'r'.repeat(129), 'a b', 'x<script>', 'id\u00e9', '']) {
      const headers: Record<string, string> = id === undefined ? {} : { 'x-request-id': id };
      for (const [name, res] of Object.entries(await responses(headers))) {
        const got = res.headers['x-request-id'];
        expect(typeof got, name).toBe('string');
        expect(got, name).not.toBe(id);
        expect(got, name).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
        seen.add(got as string);
      }
    }
    expect(seen.size).toBe(6 * 10);
  });
});

describe('system routes', () => {
  it('answers /healthz with {"status":"ok"}', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/healthz' });
    expect([res.statusCode, res.body]).toEqual([200, '{"status":"ok"}']);
  });

  it('serves the docs page as HTML', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<html/i);
  });
});

describe('/openapi.json', () => {
  // Every status contract §2–§5 gives each endpoint.
  const STATUSES: Record<string, string[]> = {
    '/dni/session': ['201', '401', '403', '404', '413', '422', '429'],
    '/dni/campaigns/{campaign_code}/buyer-report': [
      '200',
      '201',
      '401',
      '403',
      '404',
      '413',
      '422',
    ],
    '/tracking/campaigns/{campaign_code}/outbound': [
      '200',
      '202',
      '401',
      '403',
      '404',
      '409',
      '413',
      '422',
    ],
  };
  let spec: ReturnType<typeof json>;
  beforeAll(async () => {
    const res = await h.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    spec = json(res);
  });

  it('is OpenAPI 3.1.0 with info.version 0.1.0', () => {
    expect(spec.openapi).toBe('3.1.0');
    expect(spec.info.version).toBe('0.1.0');
  });

  it.each(Object.entries(STATUSES))('lists every contract status of POST %s', (path, codes) => {
    const responses = spec.paths[path]?.post?.responses ?? {};
    for (const code of codes) {
      expect([code, Object.keys(responses[code]?.content ?? {})]).toEqual([
        code,
        ['application/json'],
      ]);
    }
    expect(spec.paths[path].post.security).toEqual([{ bearerAuth: [] }]);
  });

  it('documents the error codes of each status', () => {
    const codes = (path: string, status: string) =>
      allowedValues(spec, responseSchema(spec, path, status).properties.detail);
    for (const path of Object.keys(STATUSES)) {
      expect(codes(path, '401')).toEqual(['invalid_api_key']);
      expect(codes(path, '403')).toEqual(['tracking_disabled', 'insufficient_scope']);
      expect(codes(path, '413')).toEqual(['payload_too_large']);
      expect(codes(path, '404')).toContain('campaign_not_found');
    }
    expect(codes('/dni/campaigns/{campaign_code}/buyer-report', '404')).toContain('call_not_found');
    expect(codes('/dni/session', '429')).toEqual(['rate_limited']);
  });

  it('describes 422 bodies as FastAPI does', () => {
    const schema = responseSchema(spec, '/dni/session', '422');
    const item = deref(spec, schema.properties.detail.items);
    expect(item.required).toEqual(['type', 'loc', 'msg']);
    expect(Object.keys(item.properties)).toEqual(['type', 'loc', 'msg', 'input', 'ctx']);
  });

  const operations = () =>
    Object.entries(spec.paths).flatMap(([path, item]: [string, any]) =>
      Object.entries(item).map(([method, op]: [string, any]) => ({ path, method, op })),
    );

  it('names every body in components.schemas and gives each operation an id, summary, description', () => {
    const ids = new Set<string>();
    for (const { path, op } of operations()) {
      expect([path, typeof op.operationId, typeof op.summary, typeof op.description]).toEqual([
        path,
        'string',
        'string',
        'string',
      ]);
      ids.add(op.operationId);
      const bodies = [
        op.requestBody?.content['application/json'],
        ...Object.values(op.responses).map((r: any) => r.content?.['application/json']),
      ].filter(Boolean);
      for (const media of bodies) {
        expect(media.schema.$ref, path).toMatch(/^#\/components\/schemas\/[A-Za-z]+$/);
        expect(deref(spec, media.schema), path).toBeTruthy();
        expect(media.example, `${path} ${media.schema.$ref}`).toBeDefined();
      }
    }
    expect([...ids].sort()).toEqual([
      'createDniSession',
      'executeOutboundTouch',
      'getHealth',
      'getReadiness',
      'postBuyerReport',
    ]);
  });

  it('describes each status on its own and declares the headers each one sends', () => {
    const headersOf = (path: string, status: string) =>
      Object.keys(spec.paths[path].post.responses[status].headers ?? {}).sort();
    for (const { path, op } of operations()) {
      for (const [status, res] of Object.entries(op.responses) as [string, any][]) {
        expect([path, status, res.description]).not.toEqual([path, status, 'Default Response']);
        expect(Object.keys(res.headers ?? {}), `${path} ${status}`).toContain('X-Request-Id');
      }
    }
    const counted = ['RateLimit', 'RateLimit-Policy', 'X-Request-Id'];
    expect(headersOf('/dni/session', '201')).toEqual(counted);
    expect(headersOf('/dni/session', '429')).toEqual([
      'RateLimit',
      'RateLimit-Policy',
      'Retry-After',
      'X-Request-Id',
    ]);
    expect(headersOf('/dni/session', '401')).toEqual(['WWW-Authenticate', 'X-Request-Id']);
    const outbound = '/tracking/campaigns/{campaign_code}/outbound';
    expect(headersOf(outbound, '200')).toEqual(['Idempotent-Replayed', 'X-Request-Id']);
    expect(headersOf(outbound, '202')).toEqual(['Idempotent-Replayed', 'X-Request-Id']);
  });

  it('types the 422 item exactly: ctx an object with any keys, input any value', () => {
    const item = deref(spec, responseSchema(spec, '/dni/session', '422').properties.detail.items);
    expect(item.properties.ctx).toMatchObject({ type: 'object', additionalProperties: true });
    expect(item.properties.input.type).toBeUndefined();
    expect(item.properties.loc.items.anyOf).toEqual([{ type: 'string' }, { type: 'integer' }]);
  });

  it('names its servers and its license', () => {
    // Relative: "Try it out" goes to the host the page came from (openapi-servers.test.ts).
    expect(spec.servers).toEqual([
      { url: '/', description: 'The public listener this document was loaded from' },
    ]);
    expect(spec.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
  });

  it('documents the path parameter and the request bodies', () => {
    for (const route of ROUTES) {
      const path = route.name.slice('POST '.length);
      const op = spec.paths[path].post;
      const body = deref(spec, op.requestBody.content['application/json'].schema);
      expect(body.additionalProperties).toBe(false);
      expect(body.required).toEqual(route.required);
      const params = (op.parameters ?? []).map((p: { name: string; in: string }) => [p.in, p.name]);
      expect(params).toEqual(route.codeInPath ? [['path', 'campaign_code']] : []);
    }
  });
});
