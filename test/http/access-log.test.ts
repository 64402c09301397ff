import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { buildDeps, TestClock } from '../helpers/harness.js';
import { openTestStore, type TestStore } from '../helpers/store.js';

let store: TestStore;
let app: FastifyInstance;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  store = await openTestStore();
  const { deps } = await buildDeps(store, new TestClock());
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });
  deps.logger = pino({ level: 'info' }, sink);
  app = await buildApp(deps);
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await store.close();
});

describe('access log', () => {
  it('writes one line per request with method, url, status, time and request id', async () => {
    lines.length = 0;
    const res = await app.inject({
      method: 'POST',
      url: '/dni/session',
      headers: { authorization: 'Bearer svc_live_nope', 'x-request-id': 'req-log-1' },
      payload: {},
    });
    expect(res.statusCode).toBe(401);
    const mine = lines.filter((l) => l.reqId === 'req-log-1');
    expect(mine.map((l) => l.msg)).toEqual(['request completed']);
    const [line] = mine as [{ req: object; res: object; responseTime: unknown }];
    expect(line.req).toMatchObject({ method: 'POST', url: '/dni/session' });
    expect(line.res).toEqual({ statusCode: 401 });
    expect(typeof line.responseTime).toBe('number');
    expect(JSON.stringify(line)).not.toContain('svc_live_nope');
  });
});
