import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium, driven by playwright-core: no browser download. */
export const CHROMIUM = '/usr/bin/chromium';
export const browserMissing = !existsSync(CHROMIUM) && !process.env.CI;

export async function launch(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    locale: 'en-US',
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
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical violations on the page. Evaluated through
 * the DevTools protocol, which the page's CSP does not govern, so the check
 * needs no weakening of the policy under test.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const result = (await page.evaluate(() =>
    (globalThis as unknown as { axe: { run(o: object): Promise<unknown> } }).axe.run({
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      },
    }),
  )) as { violations: AxeViolation[] };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * The tables on the page that scroll sideways in their box at the page's current width (the
 * `aria-label` of each `.scroll` region wider inside than out): at a laptop's 1280 px none
 * should, or a column (a buyer's revenue) hides off the right edge.
 */
export async function tablesScrollingSideways(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type El = { scrollWidth: number; clientWidth: number; getAttribute(n: string): string | null };
    const doc = (
      globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<El> } }
    ).document;
    return [...doc.querySelectorAll('.scroll')]
      .filter((s) => s.scrollWidth > s.clientWidth)
      .map((s) => `${s.getAttribute('aria-label')} (${s.scrollWidth} px in ${s.clientWidth})`);
  });
}

/** Signs in on the console at `consoleUrl` and waits for the Overview. */
export async function signInBrowser(
  page: Page,
  consoleUrl: string,
  email: string,
  password: string,
): Promise<void> {
  await page.goto(`${consoleUrl}/`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/overview/);
}
