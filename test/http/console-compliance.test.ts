import { describe, expect, it } from 'vitest';
import { SUPPRESSION_LISTS } from '../../src/domain/vocabulary.js';
import { makeUser, signIn, useConsole } from '../helpers/console.js';
import { createTenant, useHarness } from '../helpers/harness.js';

/** The Compliance page's counts and lists, against rows written straight into the store. */
const h = useHarness();
const c = useConsole(h);

async function orgWithViewer() {
  const t = await createTenant(h);
  const viewer = await signIn(c.app, (await makeUser(h, 'viewer', t.orgId)).email);
  return { t, viewer };
}

const csvLines = (body: string) => body.trim().split(/\r?\n/);

describe('consent replies', () => {
  it('counts opt-outs, unclear replies asked about and answers apart, in the range only', async () => {
    const { t, viewer } = await orgWithViewer();
    const now = h.clock.now();
    const hourAgo = new Date(now - 3_600_000).toISOString();
    const yearAgo = new Date(now - 400 * 86_400_000).toISOString();
    const events: [string, string][] = [
      ['opt_out', hourAgo],
      ['opt_out', hourAgo],
      ['opt_out', hourAgo],
      ['opt_out_pending', hourAgo],
      ['opt_out_pending', hourAgo],
      ['clarified', hourAgo],
      ['resubscribe', hourAgo],
      ['opt_out_pending', yearAgo],
      ['clarified', yearAgo],
    ];
    for (const [i, [kind, at]] of events.entries())
      await h.store.query(
        `insert into consent_events (id, org_id, e164, kind, captured_at, fingerprint, actor, recorded_at)
         values ($1, $2, $3, $4, $5::timestamptz, $1, 'test', $5::timestamptz)`,
        [`ce_${t.orgId}_${i}`, t.orgId, `+1415555${String(1000 + i)}`, kind, at],
      );
    const page = await viewer.get(`/orgs/${t.orgId}/compliance`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/data-metric="opt_outs">3</);
    expect(page.body).toMatch(/data-metric="opt_outs_pending">2</);
    expect(page.body).toMatch(/data-metric="clarified">1</);
    expect(page.body).toContain('Unclear replies asked about (opt-outs until answered)');
    expect(page.body).toContain('Answered: wants messages');
  });
});

describe('suppression lists', () => {
  it('lists every list kind, Canada’s national list with its own entries and freshness', async () => {
    const { t, viewer } = await orgWithViewer();
    const day = (daysAgo: number) =>
      new Date(h.clock.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const at = new Date(h.clock.now()).toISOString();
    for (const [number, list] of [
      [14165550101, 'national_ca'],
      [14165550102, 'national_ca'],
      [12125550103, 'national'],
    ] as const)
      await h.store.query(
        `insert into suppression_entries (org_id, number, list, source, listed_on, added_at)
         values ($1, $2, $3, 'test', $4::date, $5::timestamptz)`,
        [t.orgId, number, list, day(3), at],
      );
    await h.store.query(
      `insert into suppression_imports
         (id, org_id, list, mode, source, listed_on, rows, added, removed, rejected, started_at, finished_at, actor)
       values ($1, $2, 'national_ca', 'full', 'test', $3::date, 2, 2, 0, 0, $4::timestamptz, $4::timestamptz, 'test')`,
      [`si_${t.orgId}`, t.orgId, day(3), at],
    );
    const res = await viewer.get(`/orgs/${t.orgId}/compliance?format=csv&table=lists`);
    expect(res.statusCode).toBe(200);
    const [head, ...rows] = csvLines(res.body);
    expect(head).toMatch(/^List,Entries,List date,Last import \([^)]+\),Freshness$/);
    expect(rows.map((r) => r.split(',')[0])).toEqual([...SUPPRESSION_LISTS]);
    const ca = rows.find((r) => r.startsWith('national_ca,'))!;
    expect(ca).toMatch(
      new RegExp(`^national_ca,2,${day(3)},.+,fresh: 3 days old \\(limit \\d+\\)$`),
    );
    const us = rows.find((r) => r.startsWith('national,'))!;
    expect(us).toMatch(/^national,1,,,never imported: marketing touches below pewc are blocked/);
  });
});
