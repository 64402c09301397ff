import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  browserMissing,
  seriousViolations,
  signInBrowser,
  useBrowser,
} from '../helpers/browser.js';
import { makeUser, PASSWORD, useConsole } from '../helpers/console.js';
import { ADMIN_TOKEN, createTenant, dni, json, useHarness } from '../helpers/harness.js';
import { PUBLIC_BASE, TWILIO_TOKEN } from '../helpers/twilio-webhook.js';
import { ring } from '../helpers/voice.js';

/**
 * docs/console.md task 7 in Debian's Chromium: more visitors than pool numbers, so some share a
 * number or get the overflow number, then signed Twilio calls to those numbers. The Overview's
 * "Ambiguous sessions" and "Calls on a shared number" figures, and the campaign's (reached by
 * the "is the pool big enough?" link), equal the traffic report and the raw rows.
 */
if (browserMissing) console.warn('console-shared-browser: skipped, /usr/bin/chromium is missing');

const h = useHarness({ twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE } });
const c = useConsole(h, { listen: true });

describe.skipIf(browserMissing)(
  'calls on shared numbers in the console',
  { timeout: 180_000 },
  () => {
    const browser = useBrowser();

    const signIn = (page: Page, email: string) => signInBrowser(page, c.url, email, PASSWORD);

    const metric = async (page: Page, name: string) =>
      (await page.locator(`[data-metric="${name}"]`).first().textContent())!.trim();

    it('the shared-number figures equal the traffic report, and the pool advice is one click away', async () => {
      const base = Date.parse('2026-03-04T15:00:00Z');
      h.clock.ms = base;
      const t = await createTenant(h, { numbers: 2, overflow: true });
      // Five visitors for two numbers: the pool is held several times over.
      const handed: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await dni(h, t.key, { campaign_code: t.code, visitor_id: `shared-${i}` });
        expect(res.statusCode).toBeLessThan(300);
        handed.push(json(res).tracking_number);
        h.clock.advance(30);
      }
      // One call to every number handed out, the overflow number included when it was.
      for (const to of new Set(handed)) {
        await ring(h, to, '+12125550160');
        h.clock.advance(60);
      }
      h.clock.advance(60);

      // The Overview's range: the last 7 days, UTC.
      const since = new Date(
        Date.parse(new Date(base).toISOString().slice(0, 10)) - 6 * 86_400_000,
      );
      const until = new Date(since.getTime() + 7 * 86_400_000);
      const answer = await h.admin.inject({
        method: 'GET',
        url: `/admin/orgs/${t.orgId}/reports/traffic?from=${since.toISOString()}&to=${until.toISOString()}&bucket=none`,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(answer.statusCode).toBe(200);
      const totals = (answer.json() as { totals: Record<string, number> }).totals;
      const [raw] = await h.store.query<{ ambiguous_calls: number; calls: number }>(
        `select count(*) filter (where ambiguous)::int as ambiguous_calls, count(*)::int as calls
         from calls where org_id = $1`,
        [t.orgId],
      );
      expect(raw!.calls).toBe(new Set(handed).size);
      expect(totals.calls).toBe(raw!.calls);
      expect(totals.calls_on_shared_number).toBe(raw!.ambiguous_calls);
      // The test means something only if the pool was in fact shared.
      expect(totals.sessions_ambiguous).toBeGreaterThan(0);
      expect(totals.calls_on_shared_number).toBeGreaterThan(0);

      const { email } = await makeUser(h, 'viewer', t.orgId);
      const page = await browser.context.newPage();
      await signIn(page, email);
      // Overview, 0 clicks: both figures.
      expect(await metric(page, 'sessions_ambiguous')).toBe(String(totals.sessions_ambiguous));
      expect(await metric(page, 'calls_on_shared_number')).toBe(
        String(totals.calls_on_shared_number),
      );
      expect(await seriousViolations(page)).toEqual([]);

      // 1 click: "is the pool big enough?" → campaigns; 2: the campaign and its sizing advice.
      await page.getByRole('link', { name: 'is the pool big enough?' }).click();
      await page.waitForURL(/\/campaigns/);
      await page.getByRole('link', { name: t.code, exact: true }).click();
      await page.waitForURL(new RegExp(`/campaigns/${t.code}`));
      expect(await metric(page, 'calls_on_shared_number')).toBe(
        String(totals.calls_on_shared_number),
      );
      const kpi = await page
        .locator('[data-metric="calls_on_shared_number"]')
        .locator('xpath=..')
        .textContent();
      expect(kpi).toContain(
        `${totals.sessions_ambiguous} of ${totals.sessions} sessions ambiguous`,
      );
      await expect
        .poll(() => page.getByRole('heading', { name: 'Is this pool big enough?' }).count())
        .toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await page.close();
    });
  },
);
