import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  expressTrackingNumber,
  fastifyTrackingNumber,
  nextTrackingNumber,
  type TrackingRouteOptions,
  trackingNumberHandler,
} from '../../packages/site/src/index.js';
import { createTenant, freshNumbers, type Tenant, useHarness } from '../helpers/harness.js';
import { useLocalServers } from '../helpers/local-servers.js';

// @call-tracking/site's route through each adapter (plain node:http, Express,
// Fastify, a Next.js route handler as Web Request → Response) against the real
// service: the visitor cookie, what is forwarded, the fallback, cross-site refusal.
const h = useHarness();
let apiUrl: string;
let t: Tenant;
let defaultNumber: string;
const listen = useLocalServers();

beforeAll(async () => {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  t = await createTenant(h);
  defaultNumber = freshNumbers(1)[0]!;
});

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}
/** Asks the route at `/tracking-number` + query, as the browser would; answers what came back. */
type Ask = (query: string, headers?: Record<string, string>, method?: string) => Promise<Answer>;

const viaFetch =
  (base: string): Ask =>
  async (query, headers = {}, method = 'GET') => {
    const res = await fetch(`${base}/tracking-number${query}`, { method, headers });
    return { status: res.status, headers: res.headers, body: await res.text() };
  };

const adapters: Record<string, (o: TrackingRouteOptions) => Promise<{ ask: Ask; origin: string }>> =
  {
    'node:http': async (o) => {
      const handler = trackingNumberHandler(o);
      const base = await listen(createServer((req, res) => void handler(req, res)));
      return { ask: viaFetch(base), origin: base };
    },
    express: async (o) => {
      const app = express();
      app.all('/tracking-number', expressTrackingNumber(o));
      const base = await listen(createServer(app));
      return { ask: viaFetch(base), origin: base };
    },
    fastify: async (o) => {
      const app = Fastify();
      app.get('/tracking-number', fastifyTrackingNumber(o));
      app.post('/tracking-number', fastifyTrackingNumber(o));
      await app.ready();
      const base = await listen(app.server);
      return { ask: viaFetch(base), origin: base };
    },
    'next.js route handler': async (o) => {
      const GET = nextTrackingNumber(o);
      const origin = 'https://www.acme.example';
      return {
        origin,
        ask: async (query, headers = {}, method = 'GET') => {
          const res = await GET(
            new Request(`${origin}/tracking-number${query}`, { method, headers }),
          );
          return { status: res.status, headers: res.headers, body: await res.text() };
        },
      };
    },
  };

const sessionOf = async (visitorId: string) =>
  h.store.query<{
    tracking_number: string;
    landing_url: string | null;
    gclid: string | null;
    fbc: string | null;
    fbp: string | null;
  }>(
    'select tracking_number, landing_url, gclid, fbc, fbp from dni_sessions where visitor_id = $1',
    [visitorId],
  );

/** What a page's own fetch carries: the browser's word that it is same-origin. */
const SAME = { 'sec-fetch-site': 'same-origin' };

const sessionsOfOrg = async (orgId: string) =>
  Number(
    (
      await h.store.query<{ n: string }>(
        'select count(*) as n from dni_sessions where org_id = $1',
        [orgId],
      )
    )[0]!.n,
  );

const visitorCookie = (a: Answer) => /ct_vid=([^;]+)/.exec(a.headers.get('set-cookie') ?? '')?.[1];

describe.each(Object.keys(adapters))('%s', (name) => {
  let ask: Ask;
  let origin: string;
  const fallbacks: unknown[] = [];
  beforeAll(async () => {
    ({ ask, origin } = await adapters[name]!({
      apiUrl,
      apiKey: t.key,
      campaign: t.code,
      defaultNumber,
      timeoutMs: 5000,
      onFallback: (e) => fallbacks.push(e),
    }));
  });

  it('a first visit: a visitor cookie, the session’s number in AMP’s shape, the visit forwarded', async () => {
    const landing = `${origin}/spring?gclid=KIT-GCLID&utm_source=mail`;
    const a = await ask(`?url=${encodeURIComponent(landing)}`, {
      cookie: '_fbc=fb.1.1700000000.IwAR; _fbp=fb.1.1700000000.123',
      'sec-fetch-site': 'same-origin',
    });
    expect(a.status).toBe(200);
    const cookie = a.headers.get('set-cookie')!;
    expect(cookie).toMatch(
      /^ct_vid=[0-9a-f-]{36}; Path=\/; Max-Age=31536000; SameSite=Lax; HttpOnly/,
    );
    expect(cookie.endsWith('; Secure')).toBe(origin.startsWith('https:'));
    const [session] = await sessionOf(visitorCookie(a)!);
    expect(session).toEqual({
      tracking_number: expect.any(String),
      landing_url: landing,
      gclid: 'KIT-GCLID',
      fbc: 'fb.1.1700000000.IwAR',
      fbp: 'fb.1.1700000000.123',
    });
    const n = session!.tracking_number;
    const body = JSON.parse(a.body);
    expect(body).toEqual({
      phoneNumber: n,
      formattedPhoneNumber: `(${n.slice(2, 5)}) ${n.slice(5, 8)}-${n.slice(8)}`,
      expiresAt: expect.any(String),
    });
    expect(Date.parse(body.expiresAt)).toBeGreaterThan(h.clock.now());
    expect(a.headers.get('cache-control')).toBe('private, no-store');
    expect(a.headers.get('content-type')).toMatch(/^application\/json/);
    expect(`${a.body}${JSON.stringify([...a.headers])}`).not.toContain(t.key.slice(-16));
  });

  it('GA4’s _ga and _ga_<container> cookies ride in the landing URL, for the GA4 client and session ids', async () => {
    const landing = `${origin}/spring?utm_source=mail`;
    const a = await ask(`?url=${encodeURIComponent(landing)}`, {
      cookie:
        '_ga=GA1.1.1234567.1763650000; _ga_ABC123=GS2.1.s1763650111$o1$g1$t1763650200; _gid=x',
      'sec-fetch-site': 'same-origin',
    });
    expect(a.status).toBe(200);
    const [session] = await sessionOf(visitorCookie(a)!);
    const sent = new URL(session!.landing_url!);
    expect(sent.searchParams.get('utm_source')).toBe('mail');
    expect(sent.searchParams.get('_ga')).toBe('GA1.1.1234567.1763650000');
    expect(sent.searchParams.get('_ga_ABC123')).toBe('GS2.1.s1763650111$o1$g1$t1763650200');
    expect(sent.searchParams.has('_gid')).toBe(false);
  });

  it('a returning visitor keeps the number; a stranger’s URL is not forwarded as the landing page', async () => {
    const first = await ask('', SAME);
    const vid = visitorCookie(first)!;
    const again = await ask(`?url=${encodeURIComponent('https://evil.example/?gclid=X')}`, {
      ...SAME,
      cookie: `ct_vid=${vid}`,
    });
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(JSON.parse(again.body).phoneNumber).toBe(JSON.parse(first.body).phoneNumber);
    const sessions = await sessionOf(vid);
    expect(sessions.map((s) => [s.landing_url, s.gclid])).toEqual([[null, null]]);
  });

  it('refuses cross-site requests (Origin or Sec-Fetch-Site) and methods other than GET', async () => {
    const strangers: Record<string, string>[] = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
    ];
    for (const headers of strangers) {
      const a = await ask('', headers);
      expect([a.status, a.body]).toEqual([403, '{"detail":"cross_site_request"}']);
      expect(a.headers.get('set-cookie')).toBeNull();
    }
    const same = await ask('', { origin, 'sec-fetch-site': 'same-origin' });
    expect(same.status).toBe(200);
    const post = await ask('', { origin }, 'POST');
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
  });

  it('HEAD, and requests that are not a page’s own fetch, get the default number without a session', async () => {
    const before = await sessionsOfOrg(t.orgId);
    const notFetches: [string, Record<string, string>][] = [
      ['HEAD', SAME],
      ['GET', {}],
      ['GET', { 'sec-fetch-site': 'none' }],
      ['GET', { 'user-agent': 'curl/8.5.0' }],
    ];
    for (const [method, headers] of notFetches) {
      const a = await ask('', headers, method);
      expect(a.status).toBe(200);
      expect(a.headers.get('set-cookie')).toBeNull();
      if (method === 'GET')
        expect(JSON.parse(a.body)).toMatchObject({ phoneNumber: defaultNumber, expiresAt: null });
    }
    expect(await sessionsOfOrg(t.orgId)).toBe(before);
    // An allowed Origin is a page's fetch too (a sibling origin, an AMP cache).
    const viaOrigin = await ask('', { origin });
    expect(JSON.parse(viaOrigin.body).expiresAt).not.toBeNull();
    expect(await sessionsOfOrg(t.orgId)).toBe(before + 1);
  });
});

/** A GET from a given loopback address (Linux routes all of 127/8 to lo). */
function getFrom(base: string, localAddress: string, headers: Record<string, string>) {
  return new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(`${base}/tracking-number`, { localAddress, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers))
          if (v !== undefined) out.set(k, String(v));
        resolve({ status: res.statusCode!, headers: out, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('one client cannot spend the organization’s sessions', () => {
  it('400 cookie-less requests from one address leave a real visitor a tracking number in the same minute', async () => {
    // 100 sessions a minute for the organization: without a per-client budget
    // the 400 requests would spend them all and the visitor would get the default.
    const org = await createTenant(h, { rateLimit: 100, numbers: 5 });
    const throttled: (string | undefined)[] = [];
    const handler = trackingNumberHandler({
      apiUrl,
      apiKey: org.key,
      campaign: org.code,
      defaultNumber,
      timeoutMs: 5000,
      now: () => h.clock.now(),
      onThrottled: (address) => throttled.push(address),
    });
    const base = await listen(createServer((req, res) => void handler(req, res)));
    const answers: Answer[] = [];
    for (let i = 0; i < 400; i += 50) {
      answers.push(
        ...(await Promise.all(Array.from({ length: 50 }, () => getFrom(base, '127.0.0.1', SAME)))),
      );
    }
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const served = answers.filter((a) => JSON.parse(a.body).expiresAt !== null).length;
    // 20 a minute at most, and a tenth of the organization's 100 once the service has said so.
    expect(served).toBeGreaterThanOrEqual(10);
    expect(served).toBeLessThanOrEqual(20);
    expect(throttled.length).toBe(400 - served);
    expect(new Set(throttled)).toEqual(new Set(['127.0.0.1']));
    expect(await sessionsOfOrg(org.orgId)).toBe(served);

    const visitor = await getFrom(base, '127.0.0.2', SAME);
    const number = JSON.parse(visitor.body);
    expect(org.numbers).toContain(number.phoneNumber);
    expect(number.expiresAt).not.toBeNull();
    expect(visitor.headers.get('set-cookie')).toMatch(/^ct_vid=/);
  });

  it('the budget is the setting’s, per window', async () => {
    const org = await createTenant(h, { rateLimit: 1000 });
    let now = h.clock.now();
    const handler = trackingNumberHandler({
      apiUrl,
      apiKey: org.key,
      campaign: org.code,
      defaultNumber,
      timeoutMs: 5000,
      clientLimit: { requests: 3, windowSeconds: 10 },
      now: () => now,
    });
    const base = await listen(createServer((req, res) => void handler(req, res)));
    const served = async (n: number) => {
      let ok = 0;
      for (let i = 0; i < n; i++) {
        const a = await getFrom(base, '127.0.0.3', SAME);
        if (JSON.parse(a.body).expiresAt !== null) ok++;
      }
      return ok;
    };
    expect(await served(5)).toBe(3);
    now += 10_000;
    expect(await served(5)).toBe(3);
  });
});

describe('when the service does not answer in time, or refuses', () => {
  it('answers the default number with no expiry, within the budget, and says why', async () => {
    const hanging = await listen(createServer(() => {}));
    // A refusal comes fast: its budget is wide so that a loaded machine cannot turn it into a timeout.
    for (const [api, key, timeoutMs, kind] of [
      [hanging, t.key, 300, 'timeout'],
      [apiUrl, `svc_live_${'0'.repeat(40)}`, 10_000, 'http'],
    ] as const) {
      const told: { kind: string }[] = [];
      const { ask } = await adapters['node:http']!({
        apiUrl: api,
        apiKey: key,
        campaign: t.code,
        defaultNumber,
        timeoutMs,
        onFallback: (e) => told.push(e),
      });
      const started = performance.now();
      const a = await ask('', SAME);
      expect(performance.now() - started).toBeLessThan(timeoutMs + 5000);
      expect(a.status).toBe(200);
      expect(JSON.parse(a.body)).toEqual({
        phoneNumber: defaultNumber,
        formattedPhoneNumber: `(415) ${defaultNumber.slice(5, 8)}-${defaultNumber.slice(8)}`,
        expiresAt: null,
      });
      expect(told.map((e) => e.kind)).toEqual([kind]);
    }
  });
});

describe('examples/nextjs/app/tracking-number/route.ts', () => {
  it('is the kit’s handler, configured from the environment', async () => {
    Object.assign(process.env, {
      TRACKING_API_URL: apiUrl,
      TRACKING_API_KEY: t.key,
      CAMPAIGN: t.code,
      DEFAULT_NUMBER: defaultNumber,
    });
    const route = await import('../../examples/nextjs/app/tracking-number/route.js');
    expect(route.dynamic).toBe('force-dynamic');
    const res = await route.GET(
      new Request('http://127.0.0.1:8082/tracking-number', { headers: SAME }),
    );
    expect(res.status).toBe(200);
    expect(t.numbers).toContain(((await res.json()) as { phoneNumber: string }).phoneNumber);
  });
});
