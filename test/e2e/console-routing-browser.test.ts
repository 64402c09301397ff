import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  browserMissing,
  seriousViolations,
  signInBrowser,
  useBrowser,
} from '../helpers/browser.js';
import { makeUser, PASSWORD, useConsole } from '../helpers/console.js';
import { createTenant, json, useHarness } from '../helpers/harness.js';
import { admin, createBuyer } from '../helpers/routing.js';
import { PUBLIC_BASE, TWILIO_TOKEN } from '../helpers/twilio-webhook.js';
import { dialEnded, ring } from '../helpers/voice.js';

/**
 * A campaign's routing plan set in the console by a manager, in Debian's Chromium: a mistyped
 * field is named next to it with everything typed kept, the saved plan is the admin API's, and
 * the next signed Twilio call to the campaign rings the buyer the plan names. Then the Buyers
 * page's drill-down: each buyer's calls are the calls that buyer answered, as the raw rows say.
 */
if (browserMissing) console.warn('console-routing-browser: skipped, /usr/bin/chromium is missing');

/** CONSOLE_SCREENSHOTS=dir saves the pages of this test at 1280 and 390 px. */
const SHOTS = process.env.CONSOLE_SCREENSHOTS;

const h = useHarness({ twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE } });
const c = useConsole(h, { listen: true });

describe.skipIf(browserMissing)('routing plans in the console', { timeout: 180_000 }, () => {
  const browser = useBrowser();

  const signIn = (page: Page, email: string) => signInBrowser(page, c.url, email, PASSWORD);

  it('a manager sets the plan; the next call rings its buyer, and each buyer’s calls are its own', async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    const t = await createTenant(h);
    const first = await createBuyer(h, t.orgId, { name: 'Harbor Leads' });
    const second = await createBuyer(h, t.orgId, { name: 'Bay Call Center' });
    const { email } = await makeUser(h, 'manager', t.orgId);
    const page = await browser.context.newPage();
    await signIn(page, email);

    // Overview → Campaigns and pools → the campaign → its routing plan.
    await page
      .getByRole('navigation', { name: 'Pages' })
      .getByRole('link', { name: 'Campaigns and pools' })
      .click();
    await page.getByRole('link', { name: t.code, exact: true }).click();
    await page.getByRole('link', { name: /^Routing plan/ }).click();
    await page.waitForURL(/\/routing$/);
    expect(await page.locator('[data-plan-summary]').textContent()).toContain('No routing plan');
    expect(await seriousViolations(page)).toEqual([]);

    // A weight out of bounds and a ring timeout of words: both named at their fields, all kept.
    await page.getByLabel('Priority for Harbor Leads').fill('1');
    await page.getByLabel('Weight for Harbor Leads').fill('500');
    await page.getByLabel('Priority for Bay Call Center').fill('2');
    await page.getByLabel('Ring each buyer for (seconds)').fill('ten');
    await page.getByLabel('When no buyer takes the call').selectOption('hangup');
    await page.getByRole('button', { name: 'Save routing plan' }).click();
    await page.locator('.field-error').first().waitFor();
    expect(await page.locator('.field-error').allTextContents()).toEqual([
      'Enter a whole number from 1 to 100.',
      'Enter a whole number from 5 to 60.',
    ]);
    expect(await page.getByLabel('Weight for Harbor Leads').getAttribute('aria-invalid')).toBe(
      'true',
    );
    expect(await page.getByLabel('Weight for Harbor Leads').inputValue()).toBe('500');
    expect(await page.getByLabel('Priority for Bay Call Center').inputValue()).toBe('2');
    expect(await page.getByLabel('Ring each buyer for (seconds)').inputValue()).toBe('ten');
    expect(await page.getByLabel('When no buyer takes the call').inputValue()).toBe('hangup');
    expect(await seriousViolations(page)).toEqual([]);
    const none = json(await admin(h, 'GET', `/admin/orgs/${t.orgId}/campaigns/${t.code}/routing`));
    expect(none.targets).toEqual([]);

    await page.getByLabel('Weight for Harbor Leads').fill('3');
    await page.getByLabel('Ring each buyer for (seconds)').fill('15');
    await page.getByRole('button', { name: 'Save routing plan' }).click();
    await page.waitForURL(/notice=saved/);
    const plan = json(await admin(h, 'GET', `/admin/orgs/${t.orgId}/campaigns/${t.code}/routing`));
    expect(plan).toMatchObject({
      targets: [
        { buyer_id: first.buyer_id, priority: 1, weight: 3 },
        { buyer_id: second.buyer_id, priority: 2, weight: 1 },
      ],
      ring_timeout_seconds: 15,
      fallback: 'hangup',
    });
    const rows = await page
      .locator('table tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent?.trim())),
      );
    expect(rows).toEqual([
      ['Harbor Leads', first.forward_to, '1', '3'],
      ['Bay Call Center', second.forward_to, '2', '1'],
    ]);
    const [audit] = await h.store.query<{ actor: string }>(
      "select actor from audit_log where org_id = $1 and action = 'routing.set'",
      [t.orgId],
    );
    expect(audit!.actor).toBe(`console:${email}`);

    // The next call is offered to the plan's first buyer: <Dial> to its number, 15 seconds.
    const call = await ring(h, t.numbers[0]!, '+12125550101');
    expect(call.step).toMatchObject({ kind: 'dial', number: first.forward_to, timeout: '15' });
    // It does not answer: the next priority rings; it answers.
    const next = await dialEnded(h, call, call.step, 'no-answer');
    expect(next).toMatchObject({ kind: 'dial', number: second.forward_to });
    await dialEnded(h, call, next, 'completed', 75);
    h.clock.advance(60);
    const again = await ring(h, t.numbers[0]!, '+12125550102');
    await dialEnded(h, again, again.step, 'completed', 40);
    h.clock.advance(60);

    // Buyers → a buyer's calls today: only the calls it answered.
    for (const b of [first, second]) {
      await page.goto(`${c.url}/orgs/${t.orgId}/overview`);
      await page
        .getByRole('navigation', { name: 'Pages' })
        .getByRole('link', { name: 'Buyers' })
        .click();
      await page.getByRole('link', { name: `Calls ${b.name} answered today` }).click();
      await page.waitForURL(/buyer=/);
      expect(await page.locator('[data-buyer-filter] strong').textContent()).toBe(b.name);
      const raw = await h.store.query<{ from_number: string }>(
        'select from_number from calls where org_id = $1 and buyer_id = $2 order by started_at desc',
        [t.orgId, b.buyer_id],
      );
      expect(raw.length).toBe(1);
      const callers = await page
        .locator('table tbody tr')
        .evaluateAll((trs) => trs.map((tr) => tr.querySelectorAll('td')[2]?.textContent?.trim()));
      expect(callers).toEqual(raw.map((r) => r.from_number));
    }
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      for (const [name, p] of [
        ['routing', `campaigns/${t.code}/routing`],
        ['buyers', 'buyers'],
        ['buyer-calls', `calls?buyer=${first.buyer_id}`],
      ] as const) {
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          await page.goto(`${c.url}/orgs/${t.orgId}/${p}`);
          await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
        }
      }
    }
    // A buyer of no organization the person sees: 404, as anything that does not exist.
    const other = await createTenant(h);
    const stranger = await createBuyer(h, other.orgId, { name: 'Elsewhere' });
    const res = await page.goto(`${c.url}/orgs/${t.orgId}/calls?buyer=${stranger.buyer_id}`);
    expect(res!.status()).toBe(404);
    await page.close();
  });
});
