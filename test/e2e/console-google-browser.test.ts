import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  browserMissing,
  seriousViolations,
  signInBrowser,
  useBrowser,
} from '../helpers/browser.js';
import { makeUser, PASSWORD, useConsole } from '../helpers/console.js';
import {
  createDestination,
  destinationCall,
  uploadsOf,
  useUploads,
} from '../helpers/conversions.js';
import { createTenant, dni, json, useHarness } from '../helpers/harness.js';
import { report } from '../helpers/reports.js';
import { PUBLIC_BASE, TWILIO_TOKEN } from '../helpers/twilio-webhook.js';
import { ring } from '../helpers/voice.js';

/**
 * docs/console.md task 8 ("did Google get our conversions?") in Debian's Chromium: a visit with
 * a gclid, a signed Twilio call to its number, the buyer's success report and one run of the
 * upload worker against the fake Google Ads. From the Overview, the webhooks page's destination
 * row and the call's page show the upload as GET …/conversion-uploads has it.
 */
if (browserMissing) console.warn('console-google-browser: skipped, /usr/bin/chromium is missing');

const h = useHarness({
  privateDatabase: 'the upload worker claims every organization’s uploads',
  twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE },
});
const c = useConsole(h, { listen: true });
const u = useUploads(h);

describe.skipIf(browserMissing)('Google conversions in the console', { timeout: 180_000 }, () => {
  const browser = useBrowser();

  const signIn = (page: Page, email: string) => signInBrowser(page, c.url, email, PASSWORD);

  const overview = async (page: Page, orgId: string) => {
    await page.goto(`${c.url}/orgs/${orgId}/overview`);
  };
  const nav = (page: Page, name: string) =>
    page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name }).click();
  const cells = (page: Page, region: string, label: string) =>
    page
      .getByRole('region', { name: region })
      .locator(`tbody td[data-label="${label}"]`)
      .allTextContents();

  it('the destination row and the call’s uploads are what the uploads API says Google got', async () => {
    h.clock.set('2026-03-04T15:00:00Z');
    const t = await createTenant(h, { numbers: 2 });
    const google = (await createDestination(h, t.orgId, 'google_ads')).destination_id;
    const session = json(
      await dni(h, t.key, { campaign_code: t.code, visitor_id: 'v-google', gclid: 'G-task8' }),
    );
    h.clock.advance(60);
    await ring(h, session.tracking_number, '+12125550177');
    const [call] = await h.store.query<{ id: string }>('select id from calls where org_id = $1', [
      t.orgId,
    ]);
    const callId = call!.id;
    h.clock.advance(120);
    const res = await report(h, t.key, t.code, {
      call_id: callId,
      report_id: 'r-task8',
      disposition: 'success',
    });
    expect(res.statusCode).toBe(201);
    await u.worker.tick();

    const uploads = await uploadsOf(h, t.orgId, google);
    expect(uploads.map((x: any) => [x.call_id, x.status])).toEqual([[callId, 'sent']]);
    expect(u.fake.google.some((g) => JSON.stringify(g).includes('G-task8'))).toBe(true);
    const api = json(
      await destinationCall(h, 'GET', `/admin/orgs/${t.orgId}/conversion-destinations/${google}`),
    ).uploads;

    const { email } = await makeUser(h, 'viewer', t.orgId);
    const page = await browser.context.newPage();
    await signIn(page, email);

    // Overview → Webhooks and exports (1): the destination's row.
    await nav(page, 'Webhooks and exports');
    await page.waitForURL(/\/webhooks/);
    expect(await seriousViolations(page)).toEqual([]);
    expect(await cells(page, 'Conversion destinations', 'Destination id')).toEqual([google]);
    const row = async (label: string) =>
      (await cells(page, 'Conversion destinations', label))[0]!.trim();
    expect(await row('Sent')).toBe(String(api.sent));
    expect(await row('Pending')).toBe(String(api.pending));
    expect(await row('Failed')).toBe(String(api.failed));
    expect(api).toMatchObject({ sent: 1, pending: 0, failed: 0 });
    expect(await row('Last success')).not.toBe('never');

    // Overview → Calls (1) → the call (2): its upload and the upload's state.
    await overview(page, t.orgId);
    await nav(page, 'Calls');
    await page.locator('table tbody tr').first().getByRole('link').first().click();
    await page.waitForURL(new RegExp(`/calls/${callId}$`));
    expect(await seriousViolations(page)).toEqual([]);
    const ids = (await cells(page, 'Conversion uploads', 'Upload id')).map((x) => x.trim());
    const states = (await cells(page, 'Conversion uploads', 'State')).map((x) => x.trim());
    expect(Object.fromEntries(ids.map((id, i) => [id, states[i]]))).toEqual(
      Object.fromEntries(uploads.map((x: any) => [x.upload_id, x.status])),
    );
    await page.close();
  });
});
