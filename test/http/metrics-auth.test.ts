import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAdminApp } from '../../src/app.js';
import { checkConformance } from '../helpers/conformance.js';
import { ADMIN_TOKEN, type Harness, json, useHarness } from '../helpers/harness.js';

const METRICS_TOKEN = 'met_test_token_0123456789';
const h: Harness = useHarness();
let separate: Awaited<ReturnType<typeof buildAdminApp>>;

beforeAll(async () => {
  separate = await buildAdminApp(h.deps, ADMIN_TOKEN, METRICS_TOKEN);
  checkConformance(separate, 'admin');
});
afterAll(async () => {
  await separate.close();
});

const scrape = (app: Harness['admin'], authorization?: string) =>
  app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

describe('/metrics falls back to the admin token', () => {
  it('is 401 without a token, with a Bearer challenge', async () => {
    const res = await scrape(h.admin);
    expect(res.statusCode).toBe(401);
    expect(json(res)).toEqual({ detail: 'invalid_metrics_token' });
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(res.body).not.toContain('http_requests_total');
  });

  it('is 401 with a wrong token', async () => {
    expect((await scrape(h.admin, 'Bearer nope')).statusCode).toBe(401);
  });

  it('is 200 with the admin token as a bearer token', async () => {
    const res = await scrape(h.admin, `Bearer ${ADMIN_TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('process_resident_memory_bytes');
  });
});

describe('METRICS_TOKEN', () => {
  it('is the one token /metrics accepts when set', async () => {
    expect((await scrape(separate, `Bearer ${METRICS_TOKEN}`)).statusCode).toBe(200);
    expect((await scrape(separate, `Bearer ${ADMIN_TOKEN}`)).statusCode).toBe(401);
    expect((await scrape(separate)).statusCode).toBe(401);
  });

  it('does not open the admin API', async () => {
    const res = await separate.inject({
      method: 'GET',
      url: '/admin/orgs/org_x',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.statusCode).toBe(401);
  });
});
