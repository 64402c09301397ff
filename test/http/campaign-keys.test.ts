import { describe, expect, it } from 'vitest';
import { createTenant, dni, type Harness, useHarness } from '../helpers/harness.js';
import { freshContact, grant, touch } from '../helpers/outbound.js';
import { recordCall, report } from '../helpers/reports.js';

const h: Harness = useHarness();

/** A tenant with one row in each campaign-owned table, made through the APIs. */
async function tenantWithRows() {
  const t = await createTenant(h);
  expect((await dni(h, t.key, { campaign_code: t.code, visitor_id: 'v1' })).statusCode).toBe(201);
  const callId = await recordCall(h, t);
  const r = await report(h, t.key, t.code, {
    call_id: callId,
    report_id: 'r1',
    disposition: 'success',
  });
  expect(r.statusCode).toBe(201);
  const to = freshContact();
  await grant(h, t.orgId, to);
  const d = await touch(h, t.key, t.code, { to_e164: to, channel: 'sms', consent_basis: 'pewc' });
  expect(d.statusCode).toBe(202);
  return t;
}

describe('a row belongs to a campaign of its own organization (database keys)', () => {
  it.each([
    ['dni_sessions', 'dni_sessions_campaign_fk'],
    ['calls', 'calls_campaign_fk'],
    ['outbound_touches', 'outbound_touches_campaign_fk'],
  ])(
    'refuses moving a row of %s to another organization or a missing campaign',
    async (table, fk) => {
      const a = await tenantWithRows();
      const b = await createTenant(h);
      const snapshot = `select * from ${table} where org_id = $1 order by id`;
      const before = await h.store.query(snapshot, [a.orgId]);
      expect(before.length).toBeGreaterThan(0);
      await expect(
        h.store.query(`update ${table} set org_id = $2 where org_id = $1`, [a.orgId, b.orgId]),
      ).rejects.toThrow(fk);
      await expect(
        h.store.query(`update ${table} set campaign_id = 'missing' where org_id = $1`, [a.orgId]),
      ).rejects.toThrow(fk);
      expect(await h.store.query(snapshot, [a.orgId])).toEqual(before);
    },
  );

  it("refuses a report event naming another organization's campaign", async () => {
    const a = await tenantWithRows();
    const b = await createTenant(h);
    const [e] = await h.store.query<{ campaign_id: string; call_id: string; key_id: string }>(
      'select campaign_id, call_id, key_id from buyer_report_events where org_id = $1',
      [a.orgId],
    );
    await expect(
      h.store.query(
        `insert into buyer_report_events (id, org_id, campaign_id, call_id, report_id, disposition, key_id, at)
         values ('bre_forged', $1, $2, $3, 'forged', 'success', $4, now())`,
        [b.orgId, e!.campaign_id, e!.call_id, e!.key_id],
      ),
    ).rejects.toThrow('buyer_report_events_campaign_fk');
  });
});

describe('one append-only guard', () => {
  it.each(['audit_log', 'consent_events', 'buyer_report_events'])(
    'names %s when it refuses a change',
    async (table) => {
      await tenantWithRows();
      await expect(h.store.query(`delete from ${table}`, [])).rejects.toThrow(
        `${table} is append-only (DELETE rejected)`,
      );
      await expect(h.store.query(`truncate ${table}`, [])).rejects.toThrow(
        `${table} is append-only (TRUNCATE rejected)`,
      );
    },
  );
});
