import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSite, formatNumber } from '../../examples/website/site.mjs';
import { createTenant, freshNumbers, type Tenant, useHarness } from '../helpers/harness.js';

/**
 * examples/website in a real browser against a real service: the number the
 * page shows is the visitor's session number, a reload keeps it, and the API
 * key never reaches the browser. Debian's chromium, driven by playwright-core
 * (no browser download). Without /usr/bin/chromium the browser half is
 * skipped, except in CI, where it must run.
 */
const CHROMIUM = '/usr/bin/chromium';
const browserMissing = !existsSync(CHROMIUM) && !process.env.CI;
if (browserMissing) {
  console.warn(`website-browser: skipped, ${CHROMIUM} is missing (apt-get install chromium)`);
}
/** Screenshots land here; the path is printed so a person can look at them. */
const SHOTS = join(tmpdir(), 'website-integration');

const h = useHarness();

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

let apiUrl: string;
let t: Tenant;
let defaultNumber: string;

beforeAll(async () => {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  t = await createTenant(h, { numbers: 3 });
  defaultNumber = freshNumbers(1)[0]!;
});

describe.skipIf(browserMissing)('the example site in headless Chromium', () => {
  let site: Server;
  let siteUrl: string;
  let context: BrowserContext;
  let profile: string;
  /** Every response the browser received: its URL, headers and body. */
  const seen: { url: string; headers: Record<string, string>; body: Promise<string> }[] = [];

  beforeAll(async () => {
    site = createSite({ apiUrl, apiKey: t.key, campaign: t.code, defaultNumber, timeoutMs: 5000 });
    siteUrl = await listen(site);
    profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    context.on('response', (r) => {
      seen.push({
        url: r.url(),
        headers: r.headers(),
        body: r.body().then(
          (b) => b.toString('utf8'),
          () => '',
        ),
      });
    });
    mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (site) await close(site);
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  const sessionOf = async (visitorId: string) =>
    h.store.query<{ tracking_number: string; gclid: string | null; landing_url: string | null }>(
      'select tracking_number, gclid, landing_url from dni_sessions where visitor_id = $1',
      [visitorId],
    );

  it('server-rendered: shows the session’s number, keeps it on reload, never leaks the key', async () => {
    const page = await context.newPage();
    const landing = `${siteUrl}/?gclid=TEST-GCLID&utm_source=newsletter`;
    await page.goto(landing);
    const href = await page.locator('#phone').getAttribute('href');
    const shown = await page.locator('#phone').textContent();

    const vid = (await context.cookies(siteUrl)).find((c) => c.name === 'vid');
    expect(vid?.httpOnly).toBe(true);
    const sessions = await sessionOf(vid!.value);
    expect(sessions).toHaveLength(1);
    const number = sessions[0]!.tracking_number;
    expect(t.numbers).toContain(number);
    expect(href).toBe(`tel:${number}`);
    expect(shown).toBe(formatNumber(number));
    expect(sessions[0]).toMatchObject({ gclid: 'TEST-GCLID', landing_url: landing });

    await page.reload();
    expect(await page.locator('#phone').getAttribute('href')).toBe(`tel:${number}`);
    expect(await sessionOf(vid!.value)).toHaveLength(1);

    const shot = join(SHOTS, 'server-rendered.png');
    await page.screenshot({ path: shot, fullPage: true });
    console.info(`website-browser: screenshot ${shot}`);
    await page.close();
  }, 60_000);

  it('page script: swaps the default number for the same visitor’s number through the site’s route', async () => {
    const page = await context.newPage();
    await page.goto(`${siteUrl}/script?gclid=SCRIPT-GCLID`);
    const vid = (await context.cookies(siteUrl)).find((c) => c.name === 'vid')!.value;
    const [session] = await sessionOf(vid);
    await expect
      .poll(() => page.locator('#phone').getAttribute('href'))
      .toBe(`tel:${session!.tracking_number}`);
    expect(await page.locator('#phone').textContent()).toBe(formatNumber(session!.tracking_number));
    const shot = join(SHOTS, 'page-script.png');
    await page.screenshot({ path: shot, fullPage: true });
    console.info(`website-browser: screenshot ${shot}`);
    await page.close();
  }, 60_000);

  it('no response body or header the browser received, nor document.cookie, holds the key', async () => {
    const page = await context.newPage();
    await page.goto(`${siteUrl}/`);
    expect(await page.evaluate('document.cookie')).not.toContain(t.key);
    expect(await page.content()).not.toContain(t.key);
    await page.close();
    expect(seen.length).toBeGreaterThanOrEqual(4);
    // Only the site answered the browser: the service is never called from the page.
    expect(seen.every((r) => r.url.startsWith(siteUrl))).toBe(true);
    const keyPart = t.key.slice(-16);
    for (const r of seen) {
      const body = await r.body;
      expect(body, r.url).not.toContain(keyPart);
      expect(JSON.stringify(r.headers), r.url).not.toContain(keyPart);
    }
  });
});

describe('when the service is slow or down', () => {
  it('a service that never answers costs the timeout, then the page shows the default number', async () => {
    const hanging = createServer(() => {});
    const slowUrl = await listen(hanging);
    const site = createSite({
      apiUrl: slowUrl,
      apiKey: t.key,
      campaign: t.code,
      defaultNumber,
      timeoutMs: 300,
    });
    const url = await listen(site);
    try {
      const started = performance.now();
      const res = await fetch(`${url}/`);
      const html = await res.text();
      expect(performance.now() - started).toBeLessThan(3000);
      expect(html).toContain(`href="tel:${defaultNumber}"`);
      expect(html).not.toContain(t.key);
    } finally {
      hanging.closeAllConnections();
      await close(hanging);
      await close(site);
    }
  });

  it('a service that refuses connections, or refuses the key, gives the default number too', async () => {
    const gone = createServer();
    const goneUrl = await listen(gone);
    await close(gone);
    for (const [api, key] of [
      [goneUrl, t.key],
      [apiUrl, 'svc_live_0000000000000000000000000000000000000000'],
    ] as const) {
      const site = createSite({ apiUrl: api, apiKey: key, campaign: t.code, defaultNumber });
      const url = await listen(site);
      try {
        const res = await fetch(`${url}/tracking-number`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ landing_url: `${url}/` }),
        });
        expect(await res.json()).toEqual({
          tracking_number: defaultNumber,
          display: formatNumber(defaultNumber),
        });
      } finally {
        await close(site);
      }
    }
  });
});
