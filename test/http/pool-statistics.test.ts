import { describe, expect, it } from 'vitest';
import { adminCall, createTenant, freshNumbers, useHarness } from '../helpers/harness.js';

const h = useHarness({
  privateDatabase: "the planner's row count is compared with the whole tracking_numbers table",
});

/** The planner's row count for tracking_numbers (-1: never analysed) and the real one. */
async function counts() {
  const [r] = await h.store.query<{ planned: number | string; actual: number | string }>(
    `select (select reltuples from pg_class where relname = 'tracking_numbers') as planned,
            (select count(*) from tracking_numbers) as actual`,
    [],
  );
  return { planned: Number(r!.planned), actual: Number(r!.actual) };
}

// Without statistics the allocation in dni_open_sessions can be planned as a
// sort of the whole pool (bench/README.md), so number changes refresh them.
describe('planner statistics follow the number pool', () => {
  it('are fresh after a campaign is created', async () => {
    await createTenant(h, { numbers: 40 });
    const c = await counts();
    expect(c.planned).toBe(c.actual);
  });

  it('are fresh after numbers are added or the pool is replaced', async () => {
    const t = await createTenant(h, { numbers: 5 });
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/campaigns/${t.code}/numbers`, {
      numbers: freshNumbers(30),
    });
    let c = await counts();
    expect(c.planned).toBe(c.actual);
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}/campaigns/${t.code}`, {
      numbers: freshNumbers(7),
    });
    c = await counts();
    expect(c.planned).toBe(c.actual);
  });
});
