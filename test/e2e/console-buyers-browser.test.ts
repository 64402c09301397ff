import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  browserMissing,
  seriousViolations,
  tablesScrollingSideways,
  useBrowser,
} from '../helpers/browser.js';
import { makeUser, PASSWORD, useConsole } from '../helpers/console.js';
import { adminCall, createTenant, json, useHarness } from '../helpers/harness.js';
import { report } from '../helpers/reports.js';
import { admin, createBuyer, setRouting } from '../helpers/routing.js';
import { PUBLIC_BASE, TWILIO_TOKEN } from '../helpers/twilio-webhook.js';
import { dialEnded, ring } from '../helpers/voice.js';

/**
 * The console's Buyers page, the offers on a call's page and the revenue on the Overview, in
 * Debian's Chromium: buyers with hostile names, calls routed through signed Twilio webhooks,
 * and every number on the pages checked against the admin API's answers.
 */
if (browserMissing) console.warn('console-buyers-browser: skipped, /usr/bin/chromium is missing');

const h = useHarness({ twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE } });
const c = useConsole(h, { listen: true });

const HOSTILE = '<script>window.__pwned=1</script>"><img src=x onerror="window.__pwned=2">';

describe.skipIf(browserMissing)('buyers in the console', { timeout: 180_000 }, () => {
  const browser = useBrowser();

  async function open(page: Page, path: string) {
    const res = (await page.goto(`${c.url}${path}`))!;
    expect(res.status(), path).toBe(200);
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await seriousViolations(page), `axe on ${path}`).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(await tablesScrollingSideways(page), `${path} at 1280 px`).toEqual([]);
  }

  it('shows caps used, open or closed, today’s calls, billable and revenue as the API counts them', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    await adminCall(h, 'PATCH', `/admin/orgs/${t.orgId}`, { currency: 'EUR' });
    const a = await createBuyer(h, t.orgId, {
      name: HOSTILE,
      caps: { daily: 5, concurrency: 2 },
      payout: { amount: '25.00', min_duration_seconds: 60 },
    });
    // Closed all week: never offered, shown closed.
    const closed = await createBuyer(h, t.orgId, { name: 'Night desk', schedule: {} });
    const b = await createBuyer(h, t.orgId, { name: 'Backup buyer', payout: { amount: '7.35' } });
    await setRouting(h, t.orgId, t.code, {
      targets: [
        { buyer_id: a.buyer_id, priority: 1 },
        { buyer_id: closed.buyer_id, priority: 1 },
        { buyer_id: b.buyer_id, priority: 2 },
      ],
    });
    const callIds: string[] = [];
    for (const [from, legs, seconds] of [
      ['+12125550001', ['completed'], 90],
      ['+12125550002', ['completed'], 20],
      ['+12125550003', ['busy', 'completed'], 40],
    ] as const) {
      const call = await ring(h, t.numbers[0]!, from);
      let step = call.step;
      for (const leg of legs) step = await dialEnded(h, call, step, leg, seconds);
      const [row] = await h.store.query<{ id: string }>(
        'select id from calls where carrier_call_sid = $1',
        [call.callSid],
      );
      callIds.push(row!.id);
      h.clock.advance(60);
    }
    // The first call rejected: out of revenue, still billable.
    expect(
      (
        await report(h, t.key, t.code, {
          call_id: callIds[0],
          report_id: 'x1',
          disposition: 'rejected',
        })
      ).statusCode,
    ).toBe(201);

    const api = json(
      await admin(
        h,
        'GET',
        `/admin/orgs/${t.orgId}/reports/traffic?from=2026-03-02T00:00:00Z&to=2026-03-03T00:00:00Z&bucket=none&group_by=buyer`,
      ),
    );
    const rowOf = (id: string) =>
      (api.rows as Record<string, unknown>[]).find((r) => r.buyer === id);
    const buyersApi = json(await admin(h, 'GET', `/admin/orgs/${t.orgId}/buyers`)).items as {
      buyer_id: string;
      usage: Record<string, number>;
    }[];
    const usageOf = (id: string) => buyersApi.find((x) => x.buyer_id === id)!.usage;

    const { email } = await makeUser(h, 'manager', t.orgId);
    const page = await browser.context.newPage();
    await page.goto(`${c.url}/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname !== '/login');

    await open(page, `/orgs/${t.orgId}/buyers`);
    const rows = await page.$$eval('table tbody tr', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')),
    );
    const byName = new Map(rows.map((r) => [r[0], r]));
    // The hostile name is text, whole.
    const hostile = byName.get(HOSTILE)!;
    expect(hostile).toBeDefined();
    // Buyer, status, open, hour, day, month, total, live, calls, billable, revenue.
    expect(hostile.slice(1, 3)).toEqual(['active', 'open']);
    expect(hostile[4]).toBe(`${usageOf(a.buyer_id).daily} / 5`);
    expect(hostile[7]).toBe(`${usageOf(a.buyer_id).concurrency} / 2`);
    expect(hostile.slice(8)).toEqual([
      String(rowOf(a.buyer_id)!.calls_answered_by_buyer),
      String(rowOf(a.buyer_id)!.calls_billable),
      String(rowOf(a.buyer_id)!.revenue),
    ]);
    expect(hostile.slice(8)).toEqual(['2', '1', '0.00']);
    expect(byName.get('Night desk')!.slice(1, 3)).toEqual(['active', 'closed']);
    expect(byName.get('Backup buyer')!.slice(8)).toEqual(['1', '1', '7.35']);
    expect(String(rowOf(b.buyer_id)!.revenue)).toBe('7.35');

    // The third call's page: its two offers as the admin API lists them.
    const detail = json(await admin(h, 'GET', `/admin/orgs/${t.orgId}/calls/${callIds[2]}`));
    await open(page, `/orgs/${t.orgId}/calls/${callIds[2]}`);
    const offers = await page.$$eval('section.table-block', (sections) => {
      const s = sections.find((x) => x.querySelector('h2')?.textContent === 'Offers to buyers');
      return [...(s?.querySelectorAll('tbody tr') ?? [])].map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? ''),
      );
    });
    expect(offers.map((o) => [o[1], o[3]])).toEqual(
      (detail.offers as { buyer_id: string; outcome: string }[]).map((o) => [
        o.buyer_id === a.buyer_id ? HOSTILE : 'Backup buyer',
        o.outcome,
      ]),
    );

    // The Overview's revenue: the report's total for the range.
    await open(page, `/orgs/${t.orgId}/overview?from=2026-03-02&to=2026-03-02`);
    expect(await page.textContent('[data-metric="revenue"]')).toBe(api.totals.revenue);
    expect(api.totals.revenue).toBe('7.35');
    await page.close();
  });
});
