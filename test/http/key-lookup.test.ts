/**
 * Issue 18, point 5: keys as a second process behind a load balancer sees them. A key created
 * through the first process works at once on the second (it asks the store before a 401);
 * wrong keys are remembered, so a flood of one costs one query; two Authorization headers are
 * no credential; a key cannot be created already expired.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEGATIVE_TTL_MS } from '../../src/domain/auth/keyring.js';
import type { Store } from '../../src/store/db.js';
import {
  ADMIN_TOKEN,
  adminCall,
  createTenant,
  type Harness,
  json,
  useHarness,
} from '../helpers/harness.js';
import { RawClient } from '../helpers/raw-http.js';
import { probe, ROUTES } from '../helpers/routes.js';
import { type SecondProcess, secondProcess } from '../helpers/second-process.js';

// The second process: its own keyring and connection, and no polling during the tests (an
// hour), so anything it knows of a new key it learnt by asking.
const h: Harness = useHarness();
let second: SecondProcess;
let app2: FastifyInstance;
let lookups = 0;

beforeAll(async () => {
  second = await secondProcess(h, 3_600_000, (store) => {
    const query = store.query.bind(store);
    store.query = ((text: string, params: unknown[]) => {
      if (text.includes('where k.key_hash = $1')) lookups++;
      return query(text, params);
    }) as Store['query'];
  });
  app2 = second.app;
});
afterAll(() => second.close());

const ACCEPTED = '{"detail":"campaign_not_found"}';
const REFUSED = '{"detail":"invalid_api_key"}';
const dni = ROUTES[0]!;
/** A well-formed key that differs from `key` in its last digit. */
const otherKey = (key: string) => key.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
const answer = async (app: FastifyInstance, key: string) =>
  (await probe(app, dni, `Bearer ${key}`)).body;

describe('a key created on another process', () => {
  it('works at once on this one, on every route', async () => {
    const t = await createTenant(h);
    for (const r of ROUTES) expect((await probe(app2, r, `Bearer ${t.key}`)).body).toBe(ACCEPTED);
  });

  it('a key unknown to the store is asked about once, then answered from memory', async () => {
    const before = lookups;
    const unknown = otherKey((await createTenant(h)).key);
    for (let i = 0; i < 20; i++) expect(await answer(app2, unknown)).toBe(REFUSED);
    expect(lookups - before).toBe(1);
    // A key that cannot be one (not the format) is refused without asking anything.
    expect(await answer(app2, 'trk_live_123')).toBe(REFUSED);
    expect(lookups - before).toBe(1);
  });

  it('unknown, revoked and expired keys take the same path: one lookup, then memory', async () => {
    const revoked = await createTenant(h);
    await adminCall(h, 'POST', `/admin/keys/${revoked.keyId}/revoke`);
    const t = await createTenant(h);
    const started = h.clock.now();
    const inAMinute = new Date(h.clock.now() + 60_000).toISOString();
    const expiring = await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/keys`, {
      scopes: ['enroll'],
      expires_at: inAMinute,
    });
    expect(await answer(app2, expiring.api_key)).toBe(ACCEPTED);
    h.clock.advance(61);
    try {
      const unknown = otherKey(t.key);
      for (const key of [unknown, revoked.key, expiring.api_key]) {
        const before = lookups;
        expect([await answer(app2, key), await answer(app2, key)]).toEqual([REFUSED, REFUSED]);
        expect([key, lookups - before]).toEqual([key, 1]);
      }
      // The memory is short: after it, the store is asked again.
      h.clock.advance(NEGATIVE_TTL_MS / 1000 + 1);
      const before = lookups;
      expect(await answer(app2, revoked.key)).toBe(REFUSED);
      expect(lookups - before).toBe(1);
    } finally {
      h.clock.ms = started;
    }
  });
});

describe('two Authorization headers', () => {
  it('are 401 invalid_api_key whichever comes first, even both the same valid key', async () => {
    const t = await createTenant(h);
    // The first process, which knows the key without asking: only the headers decide.
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (h.app.server.address() as AddressInfo).port;
    const wrong = `Bearer ${otherKey(t.key)}`;
    const good = `Bearer ${t.key}`;
    const body = JSON.stringify(dni.body('ZZZ'));
    for (const [first, second] of [
      [good, wrong],
      [wrong, good],
      [good, good],
    ]) {
      const client = await RawClient.open(port);
      client.write(
        `POST ${dni.url('ZZZ')} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n` +
          `authorization: ${first}\r\nAuthorization: ${second}\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
      const res = await client.response();
      client.destroy();
      expect([first, second, res.status, res.body]).toEqual([first, second, 401, REFUSED]);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    // One header with the valid key is accepted on the same listener.
    const client = await RawClient.open(port);
    client.write(
      `POST ${dni.url('ZZZ')} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\n` +
        `authorization: ${good}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    expect((await client.response()).body).toBe(ACCEPTED);
    client.destroy();
  });

  it('are 401 on the admin API and /metrics too, whichever comes first', async () => {
    await h.admin.listen({ port: 0, host: '127.0.0.1' });
    const port = (h.admin.server.address() as AddressInfo).port;
    const good = `Bearer ${ADMIN_TOKEN}`;
    const wrong = `Bearer ${ADMIN_TOKEN}x`;
    const get = async (path: string, auth: string[]) => {
      const client = await RawClient.open(port);
      client.write(
        `GET ${path} HTTP/1.1\r\nhost: localhost\r\n` +
          auth.map((a) => `authorization: ${a}\r\n`).join('') +
          'connection: close\r\n\r\n',
      );
      const res = await client.response();
      client.destroy();
      return res;
    };
    const refusals = {
      '/admin/orgs': '{"detail":"invalid_admin_token"}',
      '/metrics': '{"detail":"invalid_metrics_token"}',
    };
    for (const [path, refused] of Object.entries(refusals)) {
      for (const pair of [
        [good, wrong],
        [wrong, good],
        [good, good],
      ]) {
        const res = await get(path, pair);
        expect([path, pair, res.status, res.body]).toEqual([path, pair, 401, refused]);
      }
      expect((await get(path, [good])).status, path).toBe(200);
    }
  });
});

describe('expires_at at creation', () => {
  it.each([
    ['in the past', -86_400_000],
    ['now', 0],
  ])('%s is 422 and issues nothing', async (_when, offset) => {
    const t = await createTenant(h);
    const expires = new Date(h.clock.now() + offset).toISOString();
    const res = await h.admin.inject({
      method: 'POST',
      url: `/admin/orgs/${t.orgId}/keys`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { scopes: ['enroll'], expires_at: expires },
    });
    expect(res.statusCode).toBe(422);
    expect(json(res).detail).toEqual([
      {
        type: 'value_error',
        loc: ['body', 'expires_at'],
        msg: 'Value error, must be in the future',
        input: expires,
        ctx: { error: {} },
      },
    ]);
    const keys = await h.store.query<{ n: number }>(
      'select count(*)::int as n from api_keys where org_id = $1',
      [t.orgId],
    );
    expect(keys[0]!.n).toBe(1);
  });
});
