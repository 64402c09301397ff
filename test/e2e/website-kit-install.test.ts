import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, sharedBrowser } from '../helpers/browser.js';
import { createTenant, type Tenant, useHarness } from '../helpers/harness.js';

/**
 * The kit installed as docs/website-integration.md says: the three tarballs
 * `npm run build:kit` packs into dist/kit, installed with `npm install
 * ./….tgz` into an empty folder outside the repository, offline (they need
 * nothing from a registry), then the static example run from that folder
 * against the service, and the number swapped in Chromium.
 */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The site's port (this test's own). */
const SITE_PORT = 4351;
const DEFAULT = '+14155550100';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const h = useHarness();
let apiUrl: string;
let t: Tenant;
let dir: string;
let site: ChildProcess | undefined;
let context: BrowserContext | undefined;

beforeAll(async () => {
  h.clock.ms = Date.now();
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  t = await createTenant(h, { numbers: 3 });
  dir = mkdtempSync(join(tmpdir(), 'acme-site-'));
}, 60_000);

afterAll(async () => {
  await context?.close();
  if (site && site.exitCode === null) {
    site.kill('SIGTERM');
    await once(site, 'exit');
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(browserMissing)('the kit from its tarballs, outside the repository', () => {
  it('installs offline from the packed tarballs', () => {
    // What `npm run build:kit` ends with: the packages as they would be published.
    execFileSync(process.execPath, [join(ROOT, 'scripts/pack-kit.mjs')], { stdio: 'pipe' });
    const tarballs = readdirSync(join(ROOT, 'dist/kit')).filter((f) => f.endsWith('.tgz'));
    expect(tarballs.map((f) => f.replace(/-\d+\.\d+\.\d+\.tgz$/, '')).sort()).toEqual([
      'call-tracking-client',
      'call-tracking-dni-swap',
      'call-tracking-site',
    ]);
    for (const f of tarballs) cpSync(join(ROOT, 'dist/kit', f), join(dir, f));
    // The static example's own files, as a site owner would have theirs.
    cpSync(join(ROOT, 'examples/static-site/server.mjs'), join(dir, 'server.mjs'));
    cpSync(join(ROOT, 'examples/static-site/public'), join(dir, 'public'), { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'acme-site', private: true, type: 'module' })}\n`,
    );
    execFileSync(
      npm,
      ['install', '--offline', '--no-audit', '--no-fund', ...tarballs.map((f) => `./${f}`)],
      // No registry at all: an unreachable one, so a dependency it would need fails the test.
      {
        cwd: dir,
        stdio: 'pipe',
        env: { ...process.env, npm_config_registry: 'http://127.0.0.1:9/' },
      },
    );
    for (const name of ['client', 'site', 'dni-swap']) {
      const installed = realpathSync(join(dir, 'node_modules/@call-tracking', name));
      // A copy in the site's folder, not a link back into the repository.
      expect(installed.startsWith(realpathSync(dir))).toBe(true);
    }
  }, 120_000);

  it('runs the static example against the service, the number swapped in Chromium', async () => {
    site = spawn(process.execPath, ['server.mjs'], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        TRACKING_API_URL: apiUrl,
        TRACKING_API_KEY: t.key,
        CAMPAIGN: t.code,
        DEFAULT_NUMBER: DEFAULT,
        PORT: String(SITE_PORT),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      site!.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('static site on')) resolve();
      });
      site!.stderr!.on('data', (c: Buffer) => {
        out += c.toString();
      });
      site!.once('exit', (code) => reject(new Error(`site exited (${code}):\n${out}`)));
    });
    context = await (await sharedBrowser()).newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The script's budget (800 ms) raised in the pages: a loaded machine may answer slower,
    // and budgets running out are website-kit.test.ts's subject, not this one's.
    await page.route(
      (url) => url.pathname === '/' || url.pathname.endsWith('.html'),
      async (route) => {
        const res = await route.fetch();
        const body = (await res.text()).replace('data-timeout-ms="800"', 'data-timeout-ms="30000"');
        await route.fulfill({ response: res, body });
      },
    );
    // The route itself gives the service 500 ms and answers the default past that: a
    // reload asks again.
    for (let attempt = 0; attempt < 5; attempt++) {
      await page.goto(`http://127.0.0.1:${SITE_PORT}/`);
      await page.waitForLoadState('networkidle');
      if ((await page.locator('#call').getAttribute('href')) !== `tel:${DEFAULT}`) break;
    }
    await expect
      .poll(() => page.locator('#call').getAttribute('href'), { timeout: 20_000 })
      .not.toBe(`tel:${DEFAULT}`);
    const number = (await page.locator('#call').getAttribute('href'))!.slice('tel:'.length);
    expect(t.numbers).toContain(number);
    expect(errors).toEqual([]);
  }, 120_000);
});
