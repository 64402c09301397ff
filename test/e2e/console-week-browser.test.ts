import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, useBrowser } from '../helpers/browser.js';
import { makeUser, PASSWORD, useConsole } from '../helpers/console.js';
import { ADMIN_TOKEN, createTenant, freshNumbers, useHarness } from '../helpers/harness.js';
import { newSid, PUBLIC_BASE, TWILIO_TOKEN, twilioPost } from '../helpers/twilio-webhook.js';
import { parseXml } from '../helpers/xml.js';

/**
 * The tasks of docs/console.md, in Debian's Chromium on real listeners: each
 * starts on the Overview, ends within three clicks, and its answer is checked
 * against the raw rows or the API. CONSOLE_SCREENSHOTS=dir saves every page
 * at 1280 and 390 px.
 */
const SHOTS = process.env.CONSOLE_SCREENSHOTS;
if (browserMissing) console.warn('console-week-browser: skipped, /usr/bin/chromium is missing');

const h = useHarness({
  listen: 'app',
  twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE },
});
const c = useConsole(h, { listen: true });
const DAY = 86_400_000;

/** "(415) 555-0123": a number as a person types it. */
const typed = (e164: string) => `(${e164.slice(2, 5)}) ${e164.slice(5, 8)}-${e164.slice(8)}`;

const voice = (to: string, from: string, sid = newSid('CA')) => ({
  AccountSid: 'AC0123456789abcdef0123456789abcdef',
  ApiVersion: '2010-04-01',
  CallSid: sid,
  CallStatus: 'ringing',
  Called: to,
  Caller: from,
  Direction: 'inbound',
  From: from,
  To: to,
});

describe.skipIf(browserMissing)('a firm’s week in the console', { timeout: 240_000 }, () => {
  const browser = useBrowser();
  let page: Page;
  let orgId = '';
  let apiKey = '';
  const pool = freshNumbers(4);
  const office = freshNumbers(1)[0]!;
  const base = { ms: 0 };

  beforeAll(async () => {
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
    const t = await createTenant(h);
    orgId = t.orgId;
    apiKey = t.key;
    const user = await makeUser(h, 'manager', orgId);
    page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${c.url}/`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/overview/);
    base.ms = h.clock.now();
  }, 60_000);

  const overview = () => page.goto(`${c.url}/orgs/${orgId}/overview`);
  const nav = (name: string) =>
    page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name }).click();

  it('sets up a new campaign that rings the office, and a signed Twilio call is forwarded', async () => {
    await overview();
    await nav('Campaigns and pools');
    await page.getByLabel('Code').fill('OF');
    await page.getByLabel('Name', { exact: true }).fill('Office line');
    await page.getByLabel('Forward calls to').fill(typed(office));
    // One number mistyped: the page says which, keeps every line, and makes nothing.
    await page.getByLabel('Tracking numbers').fill([...pool.map(typed), '555-01'].join('\n'));
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await expect(page.locator('#f-numbers-error').textContent()).resolves.toContain('555-01');
    expect(await page.getByLabel('Tracking numbers').inputValue()).toContain(typed(pool[3]!));
    expect(await page.getByLabel('Forward calls to').inputValue()).toBe(typed(office));
    await page.getByLabel('Tracking numbers').fill(pool.map(typed).join('\n'));
    await page.getByRole('button', { name: 'Create campaign' }).click();
    await page.waitForURL(/\/campaigns\/OF\?notice=created/);
    expect(await page.getByLabel('Forward calls to').inputValue()).toBe(office);

    const [row] = await h.store.query<{ forward_to: string }>(
      "select forward_to from campaigns where org_id = $1 and code = 'OF'",
      [orgId],
    );
    expect(row!.forward_to).toBe(office);
    const res = await twilioPost(h, '/carrier/twilio/voice', voice(pool[0]!, '+12125550100'));
    expect(res.statusCode).toBe(200);
    const doc = parseXml(res.body);
    expect(doc.children.map((x) => x.name)).toEqual(['Dial']);
    expect(doc.children[0]!.text).toBe(office);
  });

  it('changes where a campaign rings: Campaigns and pools → the campaign → Save settings', async () => {
    const branch = freshNumbers(1)[0]!;
    await overview();
    await nav('Campaigns and pools');
    await page.getByRole('link', { name: 'OF', exact: true }).click();
    await page.waitForURL(/\/campaigns\/OF/);
    // A mistyped number is refused next to its field, the input kept, nothing changed.
    await page.locator('#s-forward').fill('555-01');
    await page.getByRole('button', { name: 'Save settings' }).click();
    expect(await page.locator('#s-forward').inputValue()).toBe('555-01');
    const kept = await h.store.query<{ forward_to: string }>(
      "select forward_to from campaigns where org_id = $1 and code = 'OF'",
      [orgId],
    );
    expect(kept[0]!.forward_to).toBe(office);
    await page.locator('#s-forward').fill(typed(branch));
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(/\/campaigns\/OF/);
    expect(await page.locator('#s-forward').inputValue()).toBe(branch);

    const [row] = await h.store.query<{ forward_to: string }>(
      "select forward_to from campaigns where org_id = $1 and code = 'OF'",
      [orgId],
    );
    expect(row!.forward_to).toBe(branch);
    const res = await twilioPost(h, '/carrier/twilio/voice', voice(pool[1]!, '+12125550101'));
    expect(res.statusCode).toBe(200);
    const doc = parseXml(res.body);
    expect(doc.children.map((x) => x.name)).toEqual(['Dial']);
    expect(doc.children[0]!.text).toBe(branch);
  });

  it('traffic of two weeks: sources fold, missed calls are found, the pool page follows its range', async () => {
    const api = (body: object) =>
      fetch(`${h.url}/dni/session`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ campaign_code: 'OF', ...body }),
      });
    const visit = async (at: number, n: number, query: string) => {
      h.clock.ms = at;
      const out: string[] = [];
      for (let i = 0; i < n; i++) {
        const r = await api({
          visitor_id: `v-${at}-${i}`,
          landing_url: `https://firm.example/?${query}`,
        });
        expect(r.status).toBe(201);
        out.push(((await r.json()) as { tracking_number: string }).tracking_number);
        h.clock.advance(60);
      }
      return out;
    };
    // Ten days ago: two visitors at once; the last days: three at once, from one network by
    // three names, and a call from each of the three that nobody answers.
    await visit(base.ms - 10 * DAY, 2, 'utm_source=google');
    const recent = [
      ...(await visit(base.ms - DAY, 1, 'utm_source=Facebook')),
      ...(await visit(base.ms - DAY + 120_000, 1, 'utm_source=%20FB%20')),
      ...(await visit(base.ms - DAY + 240_000, 1, 'fbclid=abc')),
    ];
    for (const [i, n] of recent.entries()) {
      const sid = newSid('CA');
      await twilioPost(h, '/carrier/twilio/voice', voice(n, `+1312555010${i}`, sid));
      h.clock.advance(30);
      const status = await twilioPost(h, '/carrier/twilio/status', {
        AccountSid: 'AC0123456789abcdef0123456789abcdef',
        CallSid: sid,
        CallStatus: i === 0 ? 'completed' : 'no-answer',
        ...(i === 0 ? { CallDuration: '95' } : {}),
      });
      expect(status.statusCode).toBeLessThan(300);
    }
    h.clock.ms = base.ms;

    // Which source brought this week's calls? One row, meta, for all three names.
    await overview();
    const sources = page
      .locator('section.table-block')
      .filter({ has: page.getByRole('heading', { name: 'Top sources', exact: true }) });
    const metaRow = sources.locator('tbody tr').filter({ hasText: /^meta/ });
    expect(await metaRow.count()).toBe(1);
    const cells = await metaRow.locator('td').allTextContents();
    expect(cells.slice(0, 4)).toEqual(['meta', '3', '3', '2']);
    expect(
      await sources
        .locator('tbody tr')
        .filter({ hasText: /^(facebook|fb)\b/ })
        .count(),
    ).toBe(0);

    // Which calls did we miss? Overview → the Missed calls figure → the Calls page filtered.
    const [raw] = await h.store.query<{ missed: number; answered: number }>(
      `select count(*) filter (where status = 'no-answer')::int as missed,
              count(*) filter (where status = 'completed' and duration_seconds > 0)::int as answered
         from calls where org_id = $1 and started_at >= $2`,
      [orgId, new Date(base.ms - 6 * DAY)],
    );
    expect(raw).toEqual({ missed: 2, answered: 1 });
    expect(await page.locator('[data-metric="calls_missed"]').textContent()).toBe('2');
    expect(await page.locator('[data-metric="answer_rate"]').textContent()).toBe('33.3%');
    await page.locator('[data-metric="calls_missed"] a').click();
    await page.waitForURL(/status=missed/);
    const rows = page.locator('table tbody tr');
    expect(await rows.count()).toBe(raw!.missed);
    for (const text of await rows.allTextContents()) expect(text).toContain('missed');
    // Latest start first.
    const times = await page
      .locator('table tbody tr td:first-child time')
      .evaluateAll((ts) => ts.map((t) => t.getAttribute('datetime') ?? ''));
    expect([...times].sort().reverse()).toEqual(times);

    // Is this pool big enough? The campaign page follows its range: the last 7 days…
    await overview();
    await page.getByRole('link', { name: 'OF', exact: true }).click();
    await page.waitForURL(/\/campaigns\/OF/);
    expect(await page.locator('[data-metric="peak_held"]').textContent()).toBe('3');
    const week = await page.locator('#sizing [data-advice]').textContent();
    const weekChart = await page.locator('.chart svg').first().getAttribute('aria-label');
    // …and the days ten days ago, typed into the range.
    const old = new Date(base.ms - 10 * DAY).toISOString().slice(0, 10);
    await page.locator('form.range input[name=from]').fill(old);
    await page.locator('form.range input[name=to]').fill(old);
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await page.waitForURL(/from=/);
    expect(await page.locator('[data-metric="peak_held"]').textContent()).toBe('2');
    expect(await page.locator('.chart svg').first().getAttribute('aria-label')).not.toBe(weekChart);
    expect(await page.locator('.chart svg').first().getAttribute('aria-label')).toContain(old);
    expect(await page.locator('#sizing [data-advice]').textContent()).not.toBe(week);
    expect(await page.locator('[data-metric="calls"]').textContent()).toBe('0');
  });

  it('a manager sets the time zone; every page and CSV labels its times with it', async () => {
    await overview();
    await nav('Settings');
    await page.getByLabel('Time zone').selectOption('America/New_York');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(/notice=saved/);
    const [org] = await h.store.query<{ time_zone: string }>(
      'select time_zone from orgs where id = $1',
      [orgId],
    );
    expect(org!.time_zone).toBe('America/New_York');
    // An invitation, so that People shows a time too.
    await nav('People');
    await page.getByLabel('Email').fill(`invited.${Date.now()}@example.test`);
    await page.getByRole('button', { name: 'Make invitation link' }).click();
    await page.locator('#secret').waitFor();
    for (const p of ['overview', 'calls', 'campaigns/OF', 'compliance', 'webhooks', 'people']) {
      await page.goto(`${c.url}/orgs/${orgId}/${p}`);
      const text = (await page.locator('main').textContent())!;
      expect(text, p).toContain('America/New_York');
      // Instants (not the days of a per-day table) carry the zone's short name.
      for (const t of await page.locator('td time[datetime*="T"]').allTextContents())
        expect(t, `${p}: ${t}`).toMatch(/ E[SD]T$/);
    }
    const csv = await page.request.get(`${c.url}/orgs/${orgId}/calls?format=csv&table=calls`);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toMatch(/^Started \(America\/New_York\),/);
    for (const l of lines.slice(1)) expect(l).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-0[45]:00,/);
    const api = await h.admin.inject({
      method: 'GET',
      url: `/admin/orgs/${orgId}/calls`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const instants = (api.json() as { items: { started_at: string }[] }).items.map((i) =>
      Date.parse(i.started_at),
    );
    expect(lines.slice(1).map((l) => Date.parse(l.split(',')[0]!))).toEqual(instants);
  });

  it('fits: the Calls table at 1280 px without scrolling sideways, charts at 390 px', async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${c.url}/orgs/${orgId}/calls`);
    const calls = page
      .locator('.scroll')
      .filter({ has: page.locator('table') })
      .first();
    const w = await calls.evaluate((e) => ({ s: e.scrollWidth, c: e.clientWidth }));
    expect(w.s).toBeLessThanOrEqual(w.c);
    for (const heading of ['Status', 'Outcome', 'Duration', 'Buyer outcome']) {
      const th = page.locator('th').filter({ hasText: new RegExp(`^${heading}`) });
      if ((await th.count()) > 0) expect(await th.first().isVisible(), heading).toBe(true);
    }
    for (const [width, p] of [
      [390, 'overview'],
      [390, 'campaigns/OF'],
      [1280, 'overview'],
      [1280, 'campaigns/OF'],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${c.url}/orgs/${orgId}/${p}`);
      const fit = await page
        .locator('.chart svg:visible')
        .first()
        .evaluate((svg) => {
          const box = svg.parentElement!.getBoundingClientRect();
          const r = svg.getBoundingClientRect();
          const labels = [...svg.querySelectorAll('text')].map((t) => t.getBoundingClientRect());
          // The x-axis labels (the lowest line of text), left to right: none overlaps the next.
          const bottom = Math.max(...labels.map((l) => l.top));
          const axis = labels
            .filter((l) => Math.abs(l.top - bottom) < 1)
            .sort((a, b) => a.left - b.left);
          const overlaps = axis.slice(1).filter((l, i) => l.left < axis[i]!.right).length;
          return {
            svg: r.right - r.left,
            box: box.right - box.left,
            lastRight: Math.max(...labels.map((l) => l.right)),
            right: r.right,
            overlaps,
            axisLabels: axis.length,
            pageScroll: (
              globalThis as unknown as { document: { scrollingElement: { scrollWidth: number } } }
            ).document.scrollingElement.scrollWidth,
            inner: (globalThis as unknown as { innerWidth: number }).innerWidth,
          };
        });
      expect(fit.svg, p).toBeLessThanOrEqual(fit.box + 0.5);
      expect(fit.lastRight, p).toBeLessThanOrEqual(fit.right + 0.5);
      expect(fit.overlaps, p).toBe(0);
      expect(fit.axisLabels, p).toBeGreaterThanOrEqual(2);
      expect(fit.pageScroll, p).toBeLessThanOrEqual(fit.inner);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it.skipIf(!SHOTS)('screenshots of every page at 1280 and 390 px', async () => {
    const calls = await h.store.query<{ id: string }>(
      'select id from calls where org_id = $1 limit 1',
      [orgId],
    );
    const pages = [
      'overview',
      'calls',
      `calls/${calls[0]!.id}`,
      'campaigns',
      'campaigns/OF',
      'compliance',
      'webhooks',
      'people',
      'settings',
    ];
    for (const p of pages) {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${c.url}/orgs/${orgId}/${p}`);
        await page.screenshot({
          path: join(
            SHOTS!,
            `week-${p.replace(/\//g, '-').replace(/call_.*/, 'call')}-${width}.png`,
          ),
          fullPage: true,
        });
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
