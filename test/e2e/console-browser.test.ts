import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, launch, seriousViolations } from '../helpers/browser.js';
import { freshEmail, makeUser, PASSWORD, useConsole } from '../helpers/console.js';
import { ADMIN_TOKEN, freshNumbers, useHarness } from '../helpers/harness.js';

/**
 * The console in Debian's Chromium (playwright-core) on a real listener: an
 * operator sets up an organization, a manager accepts the invitation, traffic
 * arrives through the public API, and the Overview shows what the reports
 * count. Every page visited is checked for its CSP and by axe-core, and
 * carries hostile strings that must stay text. CONSOLE_SCREENSHOTS=dir saves
 * each page at 1400 px and 390 px (docs/img holds the committed ones).
 */
const SHOTS = process.env.CONSOLE_SCREENSHOTS;
if (browserMissing) console.warn('console-browser: skipped, /usr/bin/chromium is missing');

const h = useHarness({ listen: 'app' });
const c = useConsole(h, { listen: true });

const HOSTILE = {
  name: '<script>window.__pwned=1</script>"><img src=x onerror="window.__pwned=2">',
  source: '"><img src=x onerror=window.__pwned=3>',
  rtl: 'invoice\u202Etxt.exe',
  notes: '<script>window.__pwned=4</script> paid \u202Edlrow',
};
const SOURCES = [
  'google',
  'newsletter',
  'facebook',
  'bing',
  'google',
  'google',
  'newsletter',
  'direct',
];

// A browser, a week of traffic and axe on every page: minutes, not the default 30 s, on a busy machine.
describe.skipIf(browserMissing)('the console in headless Chromium', { timeout: 180_000 }, () => {
  let browser: Awaited<ReturnType<typeof launch>>;
  let orgId = '';
  let apiKey = '';
  let invitation = '';
  let managerEmail = '';
  const numbers = freshNumbers(6);
  const hostileNumbers = freshNumbers(2);
  const audited = new Map<string, string[]>();

  beforeAll(async () => {
    browser = await launch();
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  /** Goes to a page and checks what every page must have; returns the answer. */
  async function visit(page: Page, path: string, name: string): Promise<Response> {
    const res = (await page.goto(`${c.url}${path}`))!;
    expect(res.status(), path).toBe(200);
    const csp = res.headers()['content-security-policy'] ?? '';
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(csp, path).not.toContain('unsafe-inline');
    expect(res.headers()['x-content-type-options']).toBe('nosniff');
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    const bad = await seriousViolations(page);
    audited.set(
      name,
      bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    );
    expect(audited.get(name), `axe on ${name}`).toEqual([]);
    if (SHOTS) {
      for (const width of [1400, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({
          path: join(SHOTS, `console-${name}-${width}.png`),
          fullPage: true,
        });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    return res;
  }

  async function signIn(page: Page, email: string) {
    await page.goto(`${c.url}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname !== '/login');
  }

  it('an operator creates an organization, a key, a manager invitation and a campaign', async () => {
    const operator = await makeUser(h, 'operator');
    const page = await browser.context.newPage();
    await signIn(page, operator.email);
    await page.goto(`${c.url}/operator/orgs`);
    await page.getByLabel('Name').fill('Harbor Plumbing & Drains');
    await page.getByLabel('Tracking on').check();
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.waitForURL(/\/operator\/orgs\/org_/);
    orgId = new URL(page.url()).pathname.split('/').at(-1)!;

    await page.getByLabel('Label').fill('website');
    await page.getByLabel(/execute/).check();
    await page.getByRole('button', { name: 'Issue key' }).click();
    apiKey = (await page.locator('#secret').textContent())!.trim();
    expect(apiKey).toMatch(/^svc_live_[0-9a-f]{40}$/);

    managerEmail = freshEmail('manager');
    await page.getByLabel('Email').fill(managerEmail);
    await page.getByLabel('Role').selectOption('manager');
    await page.getByRole('button', { name: 'Make invitation link' }).click();
    invitation = (await page.locator('#secret').textContent())!.trim();
    expect(invitation.startsWith(`${c.url}/invite/`)).toBe(true);
    await visit(page, `/operator/orgs/${orgId}`, 'operator-org');
    await visit(page, '/operator/orgs', 'operator-orgs');
    await visit(page, '/operator/users', 'operator-users');

    for (const [code, name, nums] of [
      ['SP', 'Spring drain cleaning', numbers],
      ['X', HOSTILE.name, hostileNumbers],
    ] as const) {
      await page.goto(`${c.url}/orgs/${orgId}/campaigns`);
      await page.getByLabel('Code').fill(code);
      await page.getByLabel('Name', { exact: true }).fill(name);
      await page.getByLabel('Tracking numbers').fill(nums.join('\n'));
      await page.getByRole('button', { name: 'Create campaign' }).click();
      await page.waitForURL(new RegExp(`/campaigns/${code}\\?notice=created`));
    }
    await page.close();
  });

  it('the manager accepts, traffic arrives, and the Overview shows what the reports count', async () => {
    const page = await browser.context.newPage();
    await browser.context.clearCookies();
    await page.goto(invitation);
    await page.getByLabel(/Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.waitForURL(/\/login$/);
    await signIn(page, managerEmail);
    expect(new URL(page.url()).pathname).toBe(`/orgs/${orgId}/overview`);

    // A week of visits through the public API, 10 minutes apart; every third one calls.
    const base = h.clock.now();
    const api = (path: string, body: object) =>
      fetch(`${h.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    let n = 0;
    for (let day = 6; day >= 0; day--) {
      h.clock.ms = base - day * 86_400_000 - 3 * 3_600_000;
      for (let i = 0; i < 8; i++) {
        const source = SOURCES[(i + day) % SOURCES.length]!;
        const hostile = i === 7 && day % 3 === 0;
        const landing = hostile
          ? `https://harbor.example/drains?utm_source=${encodeURIComponent(HOSTILE.source)}&utm_campaign=${encodeURIComponent(HOSTILE.rtl)}`
          : `https://harbor.example/drains?utm_source=${source}&utm_medium=cpc&utm_campaign=spring`;
        const res = await api('/dni/session', {
          campaign_code: hostile ? 'X' : 'SP',
          visitor_id: `v-${day}-${i}`,
          landing_url: landing,
          ...(source === 'google' ? { gclid: `gclid-${n}` } : {}),
        });
        expect(res.status, await res.clone().text()).toBe(201);
        const session = (await res.json()) as { tracking_number: string };
        if (i % 3 === 0 || hostile) {
          h.clock.advance(60);
          const call = await h.admin.inject({
            method: 'POST',
            url: `/admin/orgs/${orgId}/calls`,
            headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
            payload: { to: session.tracking_number, from: `+1312555${String(1000 + n).slice(-4)}` },
          });
          expect(call.statusCode).toBe(201);
          const { call_id } = call.json() as { call_id: string };
          const report = await api(`/dni/campaigns/${hostile ? 'X' : 'SP'}/buyer-report`, {
            call_id,
            report_id: `r-${n}`,
            disposition: n % 4 === 3 ? 'rejected' : 'success',
            notes: hostile ? HOSTILE.notes : 'Booked a drain inspection',
          });
          expect(report.status).toBe(201);
        }
        h.clock.advance(10 * 60);
        n++;
      }
    }
    h.clock.ms = base;

    // What the reporting API answers for the page's range (the last 7 days, UTC)…
    const since = new Date(Date.parse(new Date(base).toISOString().slice(0, 10)) - 6 * 86_400_000);
    const until = new Date(since.getTime() + 7 * 86_400_000);
    const answer = await h.admin.inject({
      method: 'GET',
      url: `/admin/orgs/${orgId}/reports/traffic?from=${since.toISOString()}&to=${until.toISOString()}&bucket=none`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(answer.statusCode).toBe(200);
    const report = answer.json() as { totals: Record<string, number> };
    // …and the raw rows it summarises.
    const [raw] = await h.store.query<{ sessions: number; calls: number; success: number }>(
      `select (select count(*)::int from dni_sessions where org_id = $1 and created_at >= $2 and created_at < $3) as sessions,
              (select count(*)::int from calls where org_id = $1 and started_at >= $2 and started_at < $3) as calls,
              (select count(*)::int from calls where org_id = $1 and started_at >= $2 and started_at < $3 and disposition = 'success') as success`,
      [orgId, since, until],
    );
    expect(raw).toEqual({ sessions: 56, calls: expect.any(Number), success: expect.any(Number) });
    expect(report.totals).toMatchObject({
      sessions: raw!.sessions,
      calls: raw!.calls,
      buyer_success: raw!.success,
    });

    await visit(page, `/orgs/${orgId}/overview`, 'overview');
    const shown = async (metric: string) =>
      Number(
        (await page.locator(`[data-metric="${metric}"]`).textContent())!.replace(/[^\d]/g, ''),
      );
    expect(await shown('sessions')).toBe(report.totals.sessions);
    expect(await shown('calls')).toBe(report.totals.calls);
    expect(await shown('buyer_success')).toBe(report.totals.buyer_success);
    expect(await shown('unique_callers')).toBe(report.totals.unique_callers);
    await expect(
      page.getByRole('img', { name: /Sessions, calls and buyer successes per day/ }).count(),
    ).resolves.toBe(1);
    // The hostile UTM source is a row of the sources table, as text.
    expect(await page.locator('table').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining(HOSTILE.source)]),
    );
    await page.close();
  });

  it('the manager drills down to a call and sees its attribution and buyer report', async () => {
    const page = await browser.context.newPage();
    await visit(page, `/orgs/${orgId}/calls`, 'calls');
    await page.getByLabel('Search').fill('"><img');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=/);
    const links = page.locator('tbody tr td:first-child a');
    expect(await links.count()).toBeGreaterThan(0);
    await links.first().click();
    await page.waitForURL(/\/calls\/call_/);
    const path = new URL(page.url()).pathname;
    await visit(page, path, 'call');
    const text = (await page.locator('main').textContent())!;
    expect(text).toContain('Rule');
    expect(text).toContain('session');
    expect(text).toContain(HOSTILE.source);
    expect(text).toContain('[U+202E]');
    expect(text).toContain('<script>window.__pwned=4</script>');
    expect(text).toMatch(/success|rejected/);

    await visit(page, `/orgs/${orgId}/campaigns`, 'campaigns');
    expect(await page.locator('main').textContent()).toContain(HOSTILE.name);
    await visit(page, `/orgs/${orgId}/campaigns/SP`, 'pool');
    await visit(page, `/orgs/${orgId}/compliance`, 'compliance');
    await visit(page, `/orgs/${orgId}/webhooks`, 'webhooks');
    await visit(page, '/account', 'account');
    await page.close();
  });

  it('the login page passes axe too', async () => {
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    await visit(page, '/login', 'login');
    await page.close();
  });
});
