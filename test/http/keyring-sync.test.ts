import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, createTenant, type Harness, useHarness } from '../helpers/harness.js';
import { probe, ROUTES } from '../helpers/routes.js';
import { type SecondProcess, secondProcess } from '../helpers/second-process.js';

// A second API process: its own keyring, refreshed from its own connection to
// the same database. Changes go through the first process's admin API only.
const h: Harness = useHarness();
let second: SecondProcess;
let app2: FastifyInstance;

/** How long another process may serve a stale key: a correctness bound, not a benchmark. */
const DEADLINE_MS = 5000;

beforeAll(async () => {
  second = await secondProcess(h, 200);
  app2 = second.app;
});
afterAll(() => second.close());

/**
 * Polls until the second process answers `expected` on every route (one body
 * for all, or one per route in ROUTES order), or fails at the deadline.
 */
async function secondProcessAnswers(key: string, expected: string | string[]): Promise<void> {
  const want = typeof expected === 'string' ? ROUTES.map(() => expected) : expected;
  const deadline = Date.now() + DEADLINE_MS;
  let last: string[] = [];
  while (Date.now() < deadline) {
    last = await Promise.all(ROUTES.map(async (r) => (await probe(app2, r, `Bearer ${key}`)).body));
    if (last.every((b, i) => b === want[i])) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(last).toEqual(want);
}

const ACCEPTED = '{"detail":"campaign_not_found"}';

describe('changes made by another process', () => {
  it('makes a newly issued key usable', async () => {
    const t = await createTenant(h);
    await secondProcessAnswers(t.key, ACCEPTED);
  });

  it('stops a revoked key', async () => {
    const t = await createTenant(h);
    await secondProcessAnswers(t.key, ACCEPTED);
    await adminCall(h, 'POST', `/admin/keys/${t.keyId}/revoke`);
    await secondProcessAnswers(t.key, '{"detail":"invalid_api_key"}');
  });

  it('applies tracking_enabled turned off, and on again', async () => {
    const t = await createTenant(h);
    await secondProcessAnswers(t.key, ACCEPTED);
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, { tracking_enabled: false });
    await secondProcessAnswers(t.key, '{"detail":"tracking_disabled"}');
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, { tracking_enabled: true });
    await secondProcessAnswers(t.key, ACCEPTED);
  });

  it('applies a scope change', async () => {
    const t = await createTenant(h);
    await secondProcessAnswers(t.key, ACCEPTED);
    await adminCall(h, 'PATCH', `/admin/keys/${t.keyId}`, { scopes: ['enroll'] });
    const scope = '{"detail":"insufficient_scope"}';
    await secondProcessAnswers(t.key, [ACCEPTED, scope, scope]);
  });

  it('stops the old key of a rotation with grace 0 and starts the new one', async () => {
    const t = await createTenant(h);
    await secondProcessAnswers(t.key, ACCEPTED);
    const next = await adminCall(h, 'POST', `/admin/keys/${t.keyId}/rotate`, { grace_seconds: 0 });
    await secondProcessAnswers(t.key, '{"detail":"invalid_api_key"}');
    await secondProcessAnswers(next.api_key, ACCEPTED);
  });
});
