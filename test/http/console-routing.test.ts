import { describe, expect, it } from 'vitest';
import { makeUser, signIn, useConsole } from '../helpers/console.js';
import { createTenant, json, useHarness } from '../helpers/harness.js';
import { admin, createBuyer } from '../helpers/routing.js';

const h = useHarness();
const c = useConsole(h);

/** The routing plan form of docs/console.md: managers change it, viewers read it. */
describe('routing plan in the console', () => {
  const planOf = async (orgId: string, code: string) =>
    json(await admin(h, 'GET', `/admin/orgs/${orgId}/campaigns/${code}/routing`));

  it('a viewer reads the plan, has no form, and a post is a 403 that changes nothing', async () => {
    const t = await createTenant(h);
    const b = await createBuyer(h, t.orgId, { name: 'Harbor Leads' });
    const viewer = await signIn(c.app, (await makeUser(h, 'viewer', t.orgId)).email);
    const path = `/orgs/${t.orgId}/campaigns/${t.code}/routing`;
    const page = await viewer.get(path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('No routing plan');
    expect(page.body).not.toContain('Save routing plan');
    const res = await viewer.post(path, {
      [`priority.${b.buyer_id}`]: '1',
      ring_timeout_seconds: '20',
      fallback: 'forward_to',
    });
    expect(res.statusCode).toBe(403);
    expect((await planOf(t.orgId, t.code)).targets).toEqual([]);
  });

  it('without the CSRF token a manager’s post is refused and nothing is saved', async () => {
    const t = await createTenant(h);
    const b = await createBuyer(h, t.orgId);
    const manager = await signIn(c.app, (await makeUser(h, 'manager', t.orgId)).email);
    const path = `/orgs/${t.orgId}/campaigns/${t.code}/routing`;
    const form = {
      [`priority.${b.buyer_id}`]: '1',
      ring_timeout_seconds: '20',
      fallback: 'hangup',
    };
    expect((await manager.post(path, form, false)).statusCode).toBe(403);
    expect((await planOf(t.orgId, t.code)).targets).toEqual([]);
    const ok = await manager.post(path, form);
    expect(ok.statusCode).toBe(303);
    expect(await planOf(t.orgId, t.code)).toMatchObject({
      targets: [{ buyer_id: b.buyer_id, priority: 1, weight: 1 }],
      fallback: 'hangup',
    });
  });

  it('another organization’s campaign is a 404', async () => {
    const t = await createTenant(h);
    const other = await createTenant(h);
    const manager = await signIn(c.app, (await makeUser(h, 'manager', t.orgId)).email);
    const res = await manager.get(`/orgs/${other.orgId}/campaigns/${other.code}/routing`);
    expect(res.statusCode).toBe(404);
  });
});
