import { describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  adminCall,
  createTenant,
  json,
  type Tenant,
  useHarness,
} from '../helpers/harness.js';
import { callRow, eventRows, recordCall, report } from '../helpers/reports.js';

const h = useHarness();

const audit = (orgId: string, query = '') =>
  h.admin.inject({
    method: 'GET',
    url: `/admin/orgs/${orgId}/audit${query}`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });

interface Entry {
  id: string;
  at: string;
  action: string;
  subject_id: string;
}

/** A tenant whose log holds, one minute apart, 5 renames after its set-up lines. */
async function tenantWithHistory(): Promise<{ t: Tenant; start: number }> {
  const t = await createTenant(h);
  h.clock.advance(60);
  const start = h.clock.now();
  for (let i = 1; i <= 5; i++) {
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, { name: `Name ${i}` });
    h.clock.advance(60);
  }
  return { t, start };
}

describe('GET /admin/orgs/{org_id}/audit', () => {
  it('lists the organization’s entries newest first, with a default page size', async () => {
    const { t } = await tenantWithHistory();
    const res = await audit(t.orgId);
    expect(res.statusCode).toBe(200);
    const body = json(res);
    expect(body.next_cursor).toBeNull();
    const actions = body.items.map((e: Entry) => e.action);
    expect(actions.slice(0, 5)).toEqual(Array(5).fill('org.updated'));
    expect(actions).toContain('org.created');
    expect(actions).toContain('campaign.created');
    const times = body.items.map((e: Entry) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
  });

  it('filters by exact action and by action prefix', async () => {
    const { t } = await tenantWithHistory();
    const callId = await recordCall(h, t);
    await report(h, t.key, t.code, { call_id: callId, report_id: 'a', disposition: 'success' });
    await report(h, t.key, t.code, { call_id: callId, report_id: 'a', disposition: 'success' });
    await report(h, t.key, t.code, { call_id: callId, report_id: 'a', disposition: 'rejected' });
    const exact = json(await audit(t.orgId, '?action=org.updated')).items;
    expect(exact).toHaveLength(5);
    const prefix = json(await audit(t.orgId, '?action=buyer_report.*')).items;
    expect(prefix.map((e: Entry) => e.action)).toEqual([
      'buyer_report.refused',
      'buyer_report.replayed',
      'buyer_report.created',
    ]);
    // An underscore in a prefix is a character, not a LIKE wildcard matching the dot.
    expect(json(await audit(t.orgId, '?action=buyer_report_*')).items).toEqual([]);
  });

  it('filters by subject', async () => {
    const { t } = await tenantWithHistory();
    const a = await recordCall(h, t);
    await recordCall(h, t, { to: t.numbers[1] });
    await report(h, t.key, t.code, { call_id: a, report_id: 'x', disposition: 'success' });
    const entries = json(await audit(t.orgId, `?subject_id=${a}`)).items;
    expect(entries.map((e: Entry) => e.action)).toEqual(['buyer_report.created', 'call.recorded']);
  });

  it('takes since inclusive and until exclusive', async () => {
    const { t, start } = await tenantWithHistory();
    const at = (minutes: number) => new Date(start + minutes * 60_000).toISOString();
    const window = json(
      await audit(t.orgId, `?action=org.updated&since=${at(1)}&until=${at(3)}`),
    ).items;
    expect(window.map((e: Entry) => e.at)).toEqual([at(2), at(1)]);
    const next = json(await audit(t.orgId, `?action=org.updated&since=${at(3)}`)).items;
    expect(next.map((e: Entry) => e.at)).toEqual([at(4), at(3)]);
  });

  it('pages with a cursor without gaps or repeats', async () => {
    const { t } = await tenantWithHistory();
    const all = json(await audit(t.orgId)).items.map((e: Entry) => e.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const body = json(await audit(t.orgId, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`));
      expect(body.items.length).toBeLessThanOrEqual(2);
      seen.push(...body.items.map((e: Entry) => e.id));
      cursor = body.next_cursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(pages).toBe(Math.ceil(all.length / 2));
  });

  it('has no next page when the last page is exactly full', async () => {
    const { t } = await tenantWithHistory();
    const body = json(await audit(t.orgId, '?action=org.updated&limit=5'));
    expect(body.items).toHaveLength(5);
    expect(body.next_cursor).toBeNull();
  });

  it("never shows another organization's entries", async () => {
    const { t } = await tenantWithHistory();
    const other = await createTenant(h);
    const ids = new Set(json(await audit(other.orgId)).items.map((e: Entry) => e.subject_id));
    expect(ids.has(t.orgId)).toBe(false);
    expect(json(await audit(other.orgId, '?action=org.updated')).items).toEqual([]);
  });

  it('answers 404, 401 and 422 like every admin route', async () => {
    const unknown = await audit('org_nope');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toBe('{"detail":"org_not_found"}');
    const t = await createTenant(h);
    const anon = await h.admin.inject({ method: 'GET', url: `/admin/orgs/${t.orgId}/audit` });
    expect(anon.statusCode).toBe(401);
    expect(anon.body).toBe('{"detail":"invalid_admin_token"}');
    const bad = await audit(t.orgId, '?cursor=abc&since=yesterday&limit=0');
    expect(bad.statusCode).toBe(422);
    expect(json(bad).detail.map((e: { loc: string[] }) => e.loc.join('.'))).toEqual([
      'query.limit',
      'query.since',
      'query.cursor',
    ]);
  });
});

describe('append-only, enforced by the database', () => {
  it.each([
    ['UPDATE', 'audit_log', "update audit_log set action = 'forged' where org_id = $1"],
    ['DELETE', 'audit_log', 'delete from audit_log where org_id = $1'],
    [
      'UPDATE',
      'buyer_report_events',
      "update buyer_report_events set disposition = 'rejected' where org_id = $1",
    ],
    ['DELETE', 'buyer_report_events', 'delete from buyer_report_events where org_id = $1'],
  ])('rejects a direct %s of %s', async (op, table, statement) => {
    const t = await createTenant(h);
    const callId = await recordCall(h, t);
    await report(h, t.key, t.code, { call_id: callId, report_id: 'r', disposition: 'success' });
    const snapshot = `select * from ${table} where org_id = $1 order by seq`;
    const before = await h.store.query(snapshot, [t.orgId]);
    await expect(h.store.query(statement, [t.orgId])).rejects.toThrow(
      `${table} is append-only (${op} rejected)`,
    );
    expect(await h.store.query(snapshot, [t.orgId])).toEqual(before);
  });

  it.each(['audit_log', 'buyer_report_events'])('rejects TRUNCATE of %s', async (table) => {
    await expect(h.store.query(`truncate ${table}`, [])).rejects.toThrow('append-only');
  });
});

describe('written in the same transaction as the change', () => {
  // A trigger that fails one chosen audit insert shows the change rolls back with it.
  async function failAuditFor(reportId: string, run: () => Promise<void>) {
    await h.store.query(
      `create or replace function test_fail_audit() returns trigger language plpgsql as $$
       begin
         if new.detail->>'report_id' = '${reportId}' then raise exception 'audit refused'; end if;
         return new;
       end $$`,
      [],
    );
    await h.store.query(
      'create trigger test_fail_audit before insert on audit_log for each row execute function test_fail_audit()',
      [],
    );
    try {
      await run();
    } finally {
      await h.store.query('drop trigger test_fail_audit on audit_log', []);
    }
  }

  it('stores no buyer report event when its audit record cannot be written', async () => {
    const t = await createTenant(h);
    const callId = await recordCall(h, t);
    await failAuditFor('doomed', async () => {
      const res = await report(h, t.key, t.code, {
        call_id: callId,
        report_id: 'doomed',
        disposition: 'success',
      });
      expect(res.statusCode).toBe(500);
      expect(res.body).toBe('{"detail":"Internal Server Error"}');
    });
    expect(await eventRows(h, t.orgId)).toHaveLength(0);
    expect((await callRow(h, callId))?.disposition).toBeNull();
    const retry = await report(h, t.key, t.code, {
      call_id: callId,
      report_id: 'doomed',
      disposition: 'success',
    });
    expect(retry.statusCode).toBe(201);
  });
});
