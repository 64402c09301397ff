import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type Tenant, useHarness } from '../helpers/harness.js';

/**
 * examples/nextjs under `next dev`, in Chromium, against the real service.
 * Not run in CI: Next.js is a 300 MB install that CI does not make (see
 * docs/website-integration.md); CI tests the example's route handler through
 * the Web Request/Response API (test/http/kit-site.test.ts). It runs wherever
 * `cd examples/nextjs && npm install` was done.
 */
const APP = fileURLToPath(new URL('../../examples/nextjs/', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const missing = !existsSync(join(APP, 'node_modules/next')) || !existsSync(CHROMIUM);
if (missing) console.warn('website-kit-next: skipped, examples/nextjs is not installed');
const SHOTS = process.env.KIT_SCREENSHOTS ?? join(tmpdir(), 'website-kit');
const PORT = 4830;
const site = `http://127.0.0.1:${PORT}`;

const h = useHarness();
let t: Tenant;
let next: ChildProcess | undefined;
let browser: Browser;

beforeAll(async () => {
  if (missing) return;
  h.clock.ms = Date.now();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  t = await createTenant(h, { numbers: 4 });
  copyFileSync(
    createRequire(import.meta.url).resolve('@call-tracking/dni-swap'),
    join(APP, 'public/dni-swap.min.js'),
  );
  next = spawn(
    join(APP, 'node_modules/.bin/next'),
    ['dev', '--port', String(PORT), '--hostname', '127.0.0.1'],
    {
      cwd: APP,
      stdio: 'ignore',
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: '1',
        TRACKING_API_URL: `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`,
        TRACKING_API_KEY: t.key,
        CAMPAIGN: t.code,
      },
    },
  );
  // next dev compiles each route on its first request: ask for both once.
  const until = Date.now() + 150_000;
  while (
    (await fetch(`${site}/tracking-number`).then(
      (r) => r.status,
      () => 0,
    )) !== 200
  ) {
    if (Date.now() > until) throw new Error('next dev did not answer within 150 s');
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  await fetch(`${site}/`);
  await fetch(`${site}/about`);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  mkdirSync(SHOTS, { recursive: true });
}, 200_000);

afterAll(async () => {
  await browser?.close();
  next?.kill('SIGTERM');
});

describe.skipIf(missing)('examples/nextjs in Chromium', () => {
  it('swaps the number (later content too), keeps it on the next page, never shows the key', async () => {
    const plain = await browser.newContext({ javaScriptEnabled: false });
    const before = await plain.newPage();
    await before.goto(`${site}/`);
    await before.screenshot({ path: join(SHOTS, 'nextjs-before.png'), fullPage: true });
    await plain.close();

    const context = await browser.newContext();
    const asked: string[] = [];
    const bodies: Promise<string>[] = [];
    context.on('request', (r) => r.url().includes('/tracking-number') && asked.push(r.url()));
    context.on('response', (r) => bodies.push(r.body().then(String, () => '')));
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${site}/`);
    await expect
      .poll(() => page.locator('#call').getAttribute('href'), { timeout: 20_000 })
      .not.toBe('tel:+14155550100');
    const number = (await page.locator('#call').getAttribute('href'))!.slice(4);
    expect(t.numbers).toContain(number);
    const [a, b, c] = [number.slice(2, 5), number.slice(5, 8), number.slice(8)];
    expect(await page.locator('#call').textContent()).toBe(`(${a}) ${b}-${c}`);
    expect(await page.locator('#dashes').textContent()).toBe(`${a}-${b}-${c}`);
    expect(await page.locator('#intl').textContent()).toBe(`+1 ${a} ${b} ${c}`);
    await page.click('#more');
    await expect.poll(() => page.locator('#late-call').textContent()).toBe(`${a}.${b}.${c}`);
    await page.screenshot({ path: join(SHOTS, 'nextjs-after.png'), fullPage: true });

    await page.goto(`${site}/about`);
    await expect.poll(() => page.locator('#call').getAttribute('href')).toBe(`tel:${number}`);
    expect(asked).toHaveLength(1);
    expect(errors).toEqual([]);
    for (const body of await Promise.all(bodies)) expect(body).not.toContain(t.key.slice(-16));
    await context.close();
  }, 120_000);
});
