import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { buildAdminApp, buildApp } from '../../src/app.js';
import { dataDirCheck, readiness, storeCheck } from '../../src/http/readiness.js';
import { suppressionListCheck } from '../../src/runtime.js';
import { checkConformance } from '../helpers/conformance.js';
import { ADMIN_TOKEN, buildDeps, json, TestClock, useHarness } from '../helpers/harness.js';
import { openTestStore } from '../helpers/store.js';

const h = useHarness();

describe('GET /healthz', () => {
  it('says the process is alive without asking any dependency', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ status: 'ok' });
  });
});

describe('GET /readyz', () => {
  it('is 200 and names each dependency while they answer', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ status: 'ok', checks: { store: { status: 'ok' } } });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('is 503 with Retry-After and the store down once the store is gone, while /healthz stays 200', async () => {
    const store = await openTestStore();
    const { deps } = await buildDeps(store, new TestClock());
    const app = await buildApp(deps);
    checkConformance(app, 'public');
    await store.close();
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(json(res)).toMatchObject({ status: 'down', checks: { store: { status: 'down' } } });
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('says each state only on the public listener; the details are logged and on the admin one', async () => {
    const store = await openTestStore();
    const { deps } = await buildDeps(store, new TestClock());
    const lines: any[] = [];
    deps.logger = pino({ level: 'info' }, { write: (l: string) => lines.push(JSON.parse(l)) });
    // The suppression check runs SQL: with the store gone, its error carries the query's text.
    deps.readiness = [storeCheck(store), suppressionListCheck(deps.repos, deps.clock)];
    const app = await buildApp(deps);
    const admin = await buildAdminApp(deps, ADMIN_TOKEN);
    checkConformance(app, 'public');
    checkConformance(admin, 'admin');
    await store.close();
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(json(res)).toEqual({
        status: 'down',
        checks: { store: { status: 'down' }, suppression_lists: { status: 'down' } },
      });
      const full = await admin.inject({
        method: 'GET',
        url: '/admin/readyz',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(full.statusCode).toBe(503);
      expect(json(full).checks.store).toMatchObject({ status: 'down', detail: expect.any(String) });
      const logged = lines.filter((l) => l.msg === 'readiness: down');
      expect(logged).toHaveLength(1);
      expect(logged[0].readiness).toEqual(json(full));
      // The same outage probed again is not logged again.
      await app.inject({ method: 'GET', url: '/readyz' });
      expect(lines.filter((l) => l.msg === 'readiness: down')).toHaveLength(1);
      const anonymous = await admin.inject({ method: 'GET', url: '/admin/readyz' });
      expect(anonymous.statusCode).toBe(401);
    } finally {
      await app.close();
      await admin.close();
    }
  });

  it('is in the OpenAPI document with both answers', async () => {
    const doc = json(await h.app.inject({ method: 'GET', url: '/openapi.json' }));
    expect(Object.keys(doc.paths['/readyz'].get.responses)).toEqual(['200', '503']);
    expect(doc.paths['/healthz'].get.responses['200']).toBeDefined();
  });
});

describe('readiness()', () => {
  it('reports a check that does not answer within the budget as down', async () => {
    const r = await readiness(
      [
        { name: 'slow', check: () => new Promise(() => {}) },
        { name: 'fine', check: async () => ({ status: 'ok' }) },
        { name: 'redis', check: async () => ({ status: 'degraded', detail: 'unreachable' }) },
      ],
      30,
    );
    expect(r).toEqual({
      status: 'down',
      checks: {
        slow: { status: 'down', detail: 'no answer within 30 ms' },
        fine: { status: 'ok' },
        redis: { status: 'degraded', detail: 'unreachable' },
      },
    });
  });

  it('reports a check the service can do without as degraded when it fails or is silent', async () => {
    const r = await readiness(
      [
        { name: 'hung', unavailable: 'degraded', check: () => new Promise(() => {}) },
        { name: 'failing', unavailable: 'degraded', check: () => Promise.reject(new Error('x')) },
      ],
      30,
    );
    expect(r).toEqual({
      status: 'degraded',
      checks: {
        hung: { status: 'degraded', detail: 'no answer within 30 ms' },
        failing: { status: 'degraded', detail: 'x' },
      },
    });
  });

  it('is degraded, not down, when only a degraded dependency is off', async () => {
    const r = await readiness(
      [{ name: 'redis', check: async () => ({ status: 'degraded' as const }) }],
      30,
    );
    expect(r.status).toBe('degraded');
  });

  it('finds a data directory that cannot be written', async () => {
    const r = await readiness([dataDirCheck('/nonexistent/data-dir')], 1000);
    expect(r).toEqual({
      status: 'down',
      checks: { data_dir: { status: 'down', detail: 'ENOENT' } },
    });
  });
});
