import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Page,
} from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

/** Debian's Chromium, driven by playwright-core: no browser download. */
export const CHROMIUM = '/usr/bin/chromium';
export const browserMissing = !existsSync(CHROMIUM) && !process.env.CI;

let shared: Promise<Browser> | undefined;

/**
 * This worker's Chromium, launched by the first file that asks and kept for
 * the files the worker runs after it (with `isolate: false` a worker keeps its
 * modules, vitest.config.ts): a launch is seconds of a loaded machine, a new
 * context milliseconds. Files never close it; playwright does when the worker
 * exits. Each file works in contexts of its own, so nothing (cookies, storage,
 * routes) passes from one file to the next.
 */
export function sharedBrowser(): Promise<Browser> {
  shared ??= chromium
    .launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    })
    .then(
      (browser) => {
        browser.once('disconnected', () => {
          shared = undefined;
        });
        return browser;
      },
      (error) => {
        shared = undefined;
        throw error;
      },
    );
  return shared;
}

/**
 * A file's browser: a context of its own in the worker's Chromium
 * (sharedBrowser), opened before the file's tests and closed after them.
 * Read `context` inside hooks and tests.
 */
export function useBrowser(options: BrowserContextOptions = {}): {
  readonly context: BrowserContext;
} {
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    context = await (await sharedBrowser()).newContext({ locale: 'en-US', ...options });
  }, 60_000);
  afterAll(async () => {
    await context?.close();
  });
  return {
    get context() {
      if (!context) throw new Error('useBrowser: the context opens in beforeAll');
      return context;
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
