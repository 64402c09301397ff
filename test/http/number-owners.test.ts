import { describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  adminCall,
  createTenant,
  freshNumbers,
  useHarness,
} from '../helpers/harness.js';

/**
 * number_owners (migration 0030, docs/scaling.md): whose number is this, one row per tracking
 * number, kept in step with tracking_numbers by a trigger in the statement that adds or removes
 * numbers; the inbound paths find a number's organization there.
 */
const h = useHarness();

const owners = async () =>
  h.store.query<{ e164: string; org_id: string }>(
    'select e164, org_id from number_owners order by e164',
    [],
  );
const numbers = async () =>
  h.store.query<{ e164: string; org_id: string }>(
    'select e164, org_id from tracking_numbers order by e164',
    [],
  );

describe('number_owners', () => {
  it('follows every number added and removed, pool and overflow, in the same statement', async () => {
    const a = await createTenant(h, { numbers: 3, overflow: true });
    const b = await createTenant(h, { numbers: 2 });
    expect(await owners()).toEqual(await numbers());
    const mine = (await owners()).filter((o) => o.org_id === a.orgId).map((o) => o.e164);
    expect(mine).toEqual(expect.arrayContaining(a.numbers));
    expect(mine).toHaveLength(4);

    const added = freshNumbers(2);
    await adminCall(h, 'POST', `/admin/orgs/${b.orgId}/campaigns/${b.code}/numbers`, {
      numbers: added,
    });
    // The pool replaced: two numbers removed, one kept, one new.
    const kept = a.numbers[0]!;
    const [fresh] = freshNumbers(1);
    await adminCall(h, 'PATCH', `/admin/orgs/${a.orgId}/campaigns/${a.code}`, {
      numbers: [kept, fresh],
    });
    const after = await owners();
    expect(after).toEqual(await numbers());
    const of = (org: string) => after.filter((o) => o.org_id === org).map((o) => o.e164);
    expect(of(b.orgId).sort()).toEqual([...b.numbers, ...added].sort());
    expect(of(a.orgId)).toEqual(expect.arrayContaining([kept, fresh]));
    expect(of(a.orgId)).not.toContain(a.numbers[1]);
  });

  it('a number another organization owns is a 409 and changes neither table', async () => {
    const a = await createTenant(h, { numbers: 1 });
    const b = await createTenant(h, { numbers: 1 });
    const before = await owners();
    const res = await h.admin.inject({
      method: 'POST',
      url: `/admin/orgs/${b.orgId}/campaigns/${b.code}/numbers`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { numbers: [a.numbers[0]] },
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(await owners()).toEqual(before);
    expect(await owners()).toEqual(await numbers());
  });

  it('an inbound call finds its organization through it', async () => {
    const a = await createTenant(h, { numbers: 1 });
    const call = await adminCall(h, 'POST', `/admin/orgs/${a.orgId}/calls`, {
      to: a.numbers[0],
      from: '+13125550142',
    });
    expect(call.call_id).toMatch(/^call_/);
    // Without its owner row the number is no one's: the call is not recorded (404).
    await h.store.query('delete from number_owners where e164 = $1', [a.numbers[0]]);
    const res = await h.admin.inject({
      method: 'POST',
      url: `/admin/orgs/${a.orgId}/calls`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { to: a.numbers[0], from: '+13125550143' },
    });
    expect(res.statusCode).toBe(404);
    await h.store.query('insert into number_owners (e164, org_id) values ($1, $2)', [
      a.numbers[0],
      a.orgId,
    ]);
  });
});
