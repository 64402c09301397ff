import { describe, expect, it } from 'vitest';
import { benchOutboundTouch, seedOutboundBench } from '../../bench/outbound-hook.js';
import { createTenant, useHarness } from '../helpers/harness.js';

const h = useHarness();

describe('bench hook', () => {
  it('queues every call, cycling the seeded contacts without hitting a cap', async () => {
    const t = await createTenant(h);
    await seedOutboundBench(h.deps.repos, { orgId: t.orgId, contacts: 5 });
    const call = benchOutboundTouch(h.store, { orgId: t.orgId, campaignCode: t.code, contacts: 5 });
    // As the bench drives it: a few loops, each awaiting its call before the next.
    const statuses: string[] = [];
    const loop = async () => {
      for (let i = 0; i < 6; i++) statuses.push((await call()).status);
    };
    await Promise.all([loop(), loop(), loop(), loop()]);
    expect(statuses).toEqual(Array(24).fill('queued'));
    const jobs = await h.store.query<{ n: string }>(
      'select count(*) as n from dispatch_jobs where org_id = $1',
      [t.orgId],
    );
    expect(Number(jobs[0]?.n)).toBe(24);
  });
});
