import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '../../src/domain/console/accounts.js';
import { makeUser, signIn, useConsole } from '../helpers/console.js';
import { HOSTILE_PREFIXES } from '../helpers/csv-hostile.js';
import { ADMIN_TOKEN, adminCall, createTenant, dni, useHarness } from '../helpers/harness.js';

/**
 * The service's CSV files over HTTP (docs/reporting.md, "CSV files"): a UTM campaign a visitor
 * chose is guarded in the report CSV and in the console's calls CSV whatever blank or fullwidth
 * character hides its formula, bidirectional controls are shown as the console's HTML shows
 * them, and phone numbers are written as they are.
 */
const h = useHarness();
const c = useConsole(h);

const HOSTILE = HOSTILE_PREFIXES.map((p) => `${p}SUM(1)`);
const BIDI = 'abc\u202eexe.txt';
const VALUES = [...HOSTILE, BIDI, 'spring sale'];
/** What a spreadsheet would run: a formula character once blanks are trimmed, or a control. */
const RUNS = /^([\s\u200b-\u200d\u2060\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20]|[\t\r\n])/u;

async function visits() {
  h.clock.advance(LOGIN_LIMITS.windowMs / 1000);
  const t = await createTenant(h, { numbers: VALUES.length });
  const from = new Date(h.clock.now() - 60_000).toISOString();
  const callers: string[] = [];
  for (const [i, v] of VALUES.entries()) {
    const res = await dni(h, t.key, {
      campaign_code: t.code,
      visitor_id: `v${i}`,
      landing_url: `https://shop.example/p?utm_campaign=${encodeURIComponent(v)}`,
    });
    expect(res.statusCode, res.body).toBe(201);
    const caller = `+131255501${String(i).padStart(2, '0')}`;
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/calls`, {
      to: res.json().tracking_number,
      from: caller,
    });
    callers.push(caller);
  }
  h.clock.advance(60);
  const to = new Date(h.clock.now() + 60_000).toISOString();
  return { t, from, to, callers };
}

function expectGuarded(cells: string[]) {
  for (const v of HOSTILE) expect(cells, JSON.stringify(v)).toContain(`'${v}`);
  expect(cells).toContain('abc[U+202E]exe.txt');
  expect(cells).toContain('spring sale');
  for (const cell of cells) expect(RUNS.test(cell), JSON.stringify(cell)).toBe(false);
}

describe('CSV cells a spreadsheet would run', () => {
  it('are guarded in the report CSV, each hostile prefix, controls shown', async () => {
    const { t, from, to } = await visits();
    const res = await h.admin.inject({
      method: 'GET',
      url: `/admin/orgs/${t.orgId}/reports/traffic?from=${from}&to=${to}&bucket=none&group_by=utm_campaign&format=csv`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(VALUES.length);
    expectGuarded(rows.map((r) => r.utm_campaign!));
    expect(rows.every((r) => r.other === 'false' && r.sessions === '1')).toBe(true);
  });

  it('are guarded in the console CSV, and phone numbers are written as they are', async () => {
    const { t, callers } = await visits();
    const viewer = await signIn(c.app, (await makeUser(h, 'viewer', t.orgId)).email);
    const res = await viewer.get(`/orgs/${t.orgId}/calls?format=csv&table=calls`);
    expect(res.statusCode, res.body).toBe(200);
    const rows = parse(res.body, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(VALUES.length);
    expectGuarded(rows.map((r) => r['UTM campaign']!));
    expect(rows.map((r) => r.Caller).sort()).toEqual([...callers].sort());
    for (const r of rows) expect(r['Tracking number']).toMatch(/^\+1\d{10}$/);
  });
});
