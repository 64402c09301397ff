import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminCall, createTenant, dni, json, useHarness } from '../helpers/harness.js';
import { itConcurrently } from '../helpers/store.js';

const h = useHarness();

const sessionRow = async (id: string) =>
  (
    await h.store.query<Record<string, unknown>>('select * from dni_sessions where id = $1', [id])
  )[0];

describe('create', () => {
  it('answers 201 with the three fields, a pool number and an ISO expiry', async () => {
    const t = await createTenant(h);
    const res = await dni(h, t.key, { campaign_code: t.code, visitor_id: 'v1' });
    expect(res.statusCode).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    const body = json(res);
    expect(Object.keys(body).sort()).toEqual(['dni_session_id', 'expires_at', 'tracking_number']);
    expect(t.numbers).toContain(body.tracking_number);
    expect(body.dni_session_id).toMatch(/^ds_[0-9a-f]{32}$/);
    expect(body.expires_at).toBe(new Date(h.clock.now() + 1800_000).toISOString());
  });

  it('stores click ids, UTMs and the landing URL for attribution', async () => {
    const t = await createTenant(h);
    const res = await dni(h, t.key, {
      campaign_code: t.code,
      visitor_id: 'v-attr',
      fbp: 'fb.1.1700000000.123',
      landing_url:
        'https://shop.example/p?utm_source=google&utm_medium=cpc&utm_campaign=spring&utm_term=shoes&utm_content=ad1&gclid=G1&fbclid=F1&msclkid=M1&gbraid=GB&wbraid=WB',
    });
    const row = await sessionRow(json(res).dni_session_id);
    expect(row).toMatchObject({
      gclid: 'G1',
      fbclid: 'F1',
      fbc: `fb.1.${h.clock.now()}.F1`,
      fbp: 'fb.1.1700000000.123',
      msclkid: 'M1',
      gbraid: 'GB',
      wbraid: 'WB',
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'spring',
      utm_term: 'shoes',
      utm_content: 'ad1',
    });
  });

  it('prefers the body gclid and fbc over those in landing_url', async () => {
    const t = await createTenant(h);
    const res = await dni(h, t.key, {
      campaign_code: t.code,
      visitor_id: 'v-pref',
      gclid: 'BODY',
      fbc: 'fb.1.1.BODY',
      landing_url: 'https://x.example/?gclid=URL&fbclid=URL',
    });
    expect(await sessionRow(json(res).dni_session_id)).toMatchObject({
      gclid: 'BODY',
      fbc: 'fb.1.1.BODY',
    });
  });

  it('accepts null for the optional fields', async () => {
    const t = await createTenant(h);
    const res = await dni(h, t.key, {
      campaign_code: t.code,
      visitor_id: 'v-null',
      fbc: null,
      fbp: null,
      gclid: null,
      landing_url: null,
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('sticky sessions', () => {
  it('gives a returning visitor the same session and number, extending the expiry', async () => {
    const t = await createTenant(h);
    const first = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 'sticky' }));
    h.clock.advance(600);
    const again = await dni(h, t.key, { campaign_code: t.code, visitor_id: 'sticky' });
    expect(again.statusCode).toBe(201);
    const second = json(again);
    expect(second.dni_session_id).toBe(first.dni_session_id);
    expect(second.tracking_number).toBe(first.tracking_number);
    expect(second.expires_at).toBe(new Date(h.clock.now() + 1800_000).toISOString());
  });

  it('keeps a number held while its session slides, then frees it after expiry', async () => {
    const t = await createTenant(h, { numbers: 1, ttl: 300 });
    const a = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 'a' }));
    h.clock.advance(250);
    await dni(h, t.key, { campaign_code: t.code, visitor_id: 'a' }); // slides to +550
    h.clock.advance(100); // past the first expiry, inside the extended one
    const b = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 'b' }));
    expect(b.tracking_number).toBe(a.tracking_number);
    expect((await sessionRow(b.dni_session_id))?.kind).toBe('shared');
    h.clock.advance(301);
    const c = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 'c' }));
    expect((await sessionRow(c.dni_session_id))?.kind).toBe('allocated');
  });

  it('opens a new session once the old one expired', async () => {
    const t = await createTenant(h, { ttl: 300 });
    const first = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 'exp' }));
    h.clock.advance(301);
    const second = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 'exp' }));
    expect(second.dni_session_id).not.toBe(first.dni_session_id);
  });

  it('is per campaign: the same visitor id in two campaigns gets two sessions', async () => {
    const t = await createTenant(h);
    const other = `zz${t.code.slice(0, 1)}`;
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/campaigns`, {
      code: other,
      name: 'Other',
      numbers: ['+14155559901'],
    });
    const a = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 'same' }));
    const b = json(await dni(h, t.key, { campaign_code: other, visitor_id: 'same' }));
    expect(b.dni_session_id).not.toBe(a.dni_session_id);
    expect(b.tracking_number).toBe('+14155559901');
  });
});

describe('allocation', () => {
  it('hands out the free number released longest ago', async () => {
    const t = await createTenant(h, { numbers: 3, ttl: 300 });
    const n1 = json(
      await dni(h, t.key, { campaign_code: t.code, visitor_id: 'o1' }),
    ).tracking_number;
    h.clock.advance(10);
    const n2 = json(
      await dni(h, t.key, { campaign_code: t.code, visitor_id: 'o2' }),
    ).tracking_number;
    h.clock.advance(10);
    const n3 = json(
      await dni(h, t.key, { campaign_code: t.code, visitor_id: 'o3' }),
    ).tracking_number;
    expect(new Set([n1, n2, n3]).size).toBe(3);
    // All three expire in the order they were handed out; the first released comes back first.
    h.clock.advance(400);
    const next = json(
      await dni(h, t.key, { campaign_code: t.code, visitor_id: 'o4' }),
    ).tracking_number;
    expect(next).toBe(n1);
    const after = json(
      await dni(h, t.key, { campaign_code: t.code, visitor_id: 'o5' }),
    ).tracking_number;
    expect(after).toBe(n2);
  });

  itConcurrently('never gives one free number to two live visitors under concurrency', async () => {
    const t = await createTenant(h, { numbers: 40 });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        dni(h, t.key, { campaign_code: t.code, visitor_id: `par-${i}` }),
      ),
    );
    expect(results.every((r) => r.statusCode === 201)).toBe(true);
    const numbers = results.map((r) => json(r).tracking_number);
    expect(new Set(numbers).size).toBe(40);
  });

  itConcurrently('gives concurrent requests of one visitor one session', async () => {
    const t = await createTenant(h, { numbers: 10 });
    const results = await Promise.all(
      Array.from({ length: 12 }, () =>
        dni(h, t.key, { campaign_code: t.code, visitor_id: 'twin' }),
      ),
    );
    expect(new Set(results.map((r) => json(r).dni_session_id)).size).toBe(1);
    const live = await h.store.query(
      'select id from dni_sessions where visitor_id = $1 and org_id = $2',
      ['twin', t.orgId],
    );
    expect(live).toHaveLength(1);
  });
});

describe('exhaustion', () => {
  it('uses the overflow number when the pool is exhausted, flagged ambiguous, still 201', async () => {
    const t = await createTenant(h, { numbers: 1, overflow: true });
    const campaign = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/campaigns/${t.code}`);
    json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 'x1' }));
    const res = await dni(h, t.key, { campaign_code: t.code, visitor_id: 'x2' });
    expect(res.statusCode).toBe(201);
    const body = json(res);
    expect(body.tracking_number).toBe(campaign.overflow_number);
    expect(await sessionRow(body.dni_session_id)).toMatchObject({
      kind: 'overflow',
      ambiguous: true,
    });
  });

  it('shares pool numbers least-recently-assigned first and flags both sessions', async () => {
    const t = await createTenant(h, { numbers: 2 });
    const a = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 's1' }));
    h.clock.advance(1);
    const b = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 's2' }));
    h.clock.advance(1);
    const c = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 's3' }));
    h.clock.advance(1);
    const d = json(await dni(h, t.key, { campaign_code: t.code, visitor_id: 's4' }));
    expect(c.tracking_number).toBe(a.tracking_number);
    expect(d.tracking_number).toBe(b.tracking_number);
    expect(await sessionRow(a.dni_session_id)).toMatchObject({ ambiguous: true });
    expect(await sessionRow(c.dni_session_id)).toMatchObject({ kind: 'shared', ambiguous: true });
  });

  itConcurrently(
    'spreads concurrent requests over an exhausted pool and counts exhaustion in metrics',
    async () => {
      const t = await createTenant(h, { numbers: 4 });
      const results = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          dni(h, t.key, { campaign_code: t.code, visitor_id: `ex-${i}` }),
        ),
      );
      expect(results.every((r) => r.statusCode === 201)).toBe(true);
      const counts = new Map<string, number>();
      for (const r of results)
        counts.set(json(r).tracking_number, (counts.get(json(r).tracking_number) ?? 0) + 1);
      expect(counts.size).toBe(4);
      const metrics = await h.admin.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(metrics.body).toMatch(
        /dni_pool_exhausted_total\{campaign_id="cmp_[0-9a-f]+",fallback="shared"\} \d+/,
      );
      expect(metrics.body).toMatch(
        new RegExp(`dni_pool_held_numbers\\{[^}]*code="${t.code}"\\} 4`),
      );
    },
  );
});

describe('not found', () => {
  it('answers 404 campaign_not_found for an unknown campaign and writes nothing', async () => {
    const t = await createTenant(h);
    const res = await dni(h, t.key, { campaign_code: 'nop', visitor_id: 'v' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toBe('{"detail":"campaign_not_found"}');
    expect(
      await h.store.query('select 1 from dni_sessions where org_id = $1', [t.orgId]),
    ).toHaveLength(0);
  });

  it("answers another organization's campaign exactly like a missing one", async () => {
    const mine = await createTenant(h);
    const theirs = await createTenant(h);
    const other = await dni(h, mine.key, { campaign_code: theirs.code, visitor_id: 'v' });
    const missing = await dni(h, mine.key, { campaign_code: 'nop', visitor_id: 'v' });
    expect(other.statusCode).toBe(404);
    expect(other.body).toBe(missing.body);
    expect(Object.keys(other.headers).sort()).toEqual(Object.keys(missing.headers).sort());
    expect(
      await h.store.query('select 1 from dni_sessions where org_id = $1', [mine.orgId]),
    ).toHaveLength(0);
  });
});
