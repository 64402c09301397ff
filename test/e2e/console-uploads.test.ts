import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, seriousViolations, useBrowser } from '../helpers/browser.js';
import { makeUser, PASSWORD, useConsole } from '../helpers/console.js';
import {
  createDestination,
  destinationCall,
  uploadsOf,
  useUploads,
} from '../helpers/conversions.js';
import { CREDS } from '../helpers/fake-ad-platforms.js';
import { createTenant, dni, json, type Tenant, useHarness } from '../helpers/harness.js';
import { recordCall, report } from '../helpers/reports.js';

/**
 * The console's view of conversion uploads in Debian's Chromium: the webhooks-and-exports
 * page lists each destination with its last success, pending and failed counts by reason,
 * and a call's page shows each upload's state; both are read against the uploads API. A
 * platform that quotes the access token in its error must not put it on either page.
 */
if (browserMissing) console.warn('console-uploads: skipped, /usr/bin/chromium is missing');

const h = useHarness({ privateDatabase: 'the upload worker claims every organization’s uploads' });
const c = useConsole(h, { listen: true });
const u = useUploads(h);

describe.skipIf(browserMissing)('conversion uploads in the console', { timeout: 120_000 }, () => {
  const browser = useBrowser();
  let t: Tenant;
  let email = '';
  const calls: Record<'sent' | 'refused' | 'waiting', string> = {
    sent: '',
    refused: '',
    waiting: '',
  };
  const dest: Record<'google' | 'meta', string> = { google: '', meta: '' };

  async function convert(session: Record<string, string>) {
    const s = json(
      await dni(h, t.key, { campaign_code: t.code, visitor_id: `v-${Math.random()}`, ...session }),
    );
    const callId = await recordCall(h, t, { to: s.tracking_number, from: '+12125550142' });
    const res = await report(h, t.key, t.code, {
      call_id: callId,
      report_id: `r-${callId}`,
      disposition: 'success',
    });
    expect(res.statusCode).toBe(201);
    return callId;
  }

  beforeAll(async () => {
    h.clock.set('2026-03-02T15:00:00Z');
    t = await createTenant(h, { numbers: 3 });
    dest.google = (await createDestination(h, t.orgId, 'google_ads')).destination_id;
    dest.meta = (await createDestination(h, t.orgId, 'meta')).destination_id;
    // Meta refuses the second call's event quoting the access token it was given.
    u.fake.script = (s) =>
      /\/events$/.test(s.path) && s.body.data.some((e: any) => e.user_data.fbc === 'fb.1.1.refused')
        ? {
            status: 400,
            body: {
              error: {
                message: `Invalid parameter (access token ${s.body.access_token})`,
                type: 'OAuthException',
                code: 100,
                fbtrace_id: 'B1',
              },
            },
          }
        : null;
    calls.sent = await convert({ gclid: 'G-console', fbc: 'fb.1.1.console' });
    calls.refused = await convert({ gclid: 'CLICK_NOT_FOUND-console', fbc: 'fb.1.1.refused' });
    for (let i = 0; i < 3 && (await u.worker.tick()) > 0; i++);
    calls.waiting = await convert({ gclid: 'G-waiting' });
    email = (await makeUser(h, 'manager', t.orgId)).email;
  }, 60_000);
  afterAll(async () => {
    u.fake.script = () => null;
  });

  async function visit(page: Page, path: string) {
    const res = (await page.goto(`${c.url}${path}`))!;
    expect(res.status(), path).toBe(200);
    expect(await seriousViolations(page), `axe on ${path}`).toEqual([]);
    const text = (await page.locator('main').textContent())!;
    expect(text).not.toContain(CREDS.meta.access_token);
    return text;
  }

  const cells = async (page: Page, region: string, label: string) =>
    page
      .getByRole('region', { name: region })
      .locator(`tbody td[data-label="${label}"]`)
      .allTextContents();

  it('the webhooks page shows each destination’s counts as the uploads API has them', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${c.url}/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((x) => x.pathname !== '/login');
    await visit(page, `/orgs/${t.orgId}/webhooks?from=2026-03-01&to=2026-03-02`);
    const ids = await cells(page, 'Conversion destinations', 'Destination id');
    expect(ids.sort()).toEqual([dest.google, dest.meta].sort());
    const column = async (label: string) => {
      const values = await cells(page, 'Conversion destinations', label);
      return Object.fromEntries(ids.map((id, i) => [id, values[i]!.trim()]));
    };
    const [pending, sent, failed, reasons, last] = await Promise.all(
      ['Pending', 'Sent', 'Failed', 'Failed by reason', 'Last success'].map(column),
    );
    for (const id of ids) {
      const api = json(
        await destinationCall(h, 'GET', `/admin/orgs/${t.orgId}/conversion-destinations/${id}`),
      ).uploads;
      expect(pending![id]).toBe(String(api.pending));
      expect(sent![id]).toBe(String(api.sent));
      expect(failed![id]).toBe(String(api.failed));
      const byReason = Object.entries(api.failed_by_reason as Record<string, number>)
        .map(([r, n]) => `${r} ${n}`)
        .sort();
      expect(reasons![id]!.split(', ').filter(Boolean).sort()).toEqual(byReason);
      expect(last![id]).not.toBe('never');
    }
    expect(pending![dest.google]).toBe('1');
    expect(reasons![dest.google]).toBe('CLICK_NOT_FOUND 1');
    expect(reasons![dest.meta]).toBe('no_click_id 1, rejected_by_platform 1');
    await page.close();
  });

  it('a call’s page shows each upload’s state as the uploads API has it', async () => {
    const page = await browser.context.newPage();
    for (const callId of Object.values(calls)) {
      const text = await visit(page, `/orgs/${t.orgId}/calls/${callId}`);
      const ids = await cells(page, 'Conversion uploads', 'Upload id');
      const states = await cells(page, 'Conversion uploads', 'State');
      const shown = Object.fromEntries(ids.map((id, i) => [id.trim(), states[i]!.trim()]));
      const api = [
        ...(await uploadsOf(h, t.orgId, dest.google)),
        ...(await uploadsOf(h, t.orgId, dest.meta)),
      ].filter((x) => x.call_id === callId);
      expect(api.length).toBeGreaterThan(0);
      expect(shown).toEqual(Object.fromEntries(api.map((x) => [x.upload_id, x.status])));
      if (callId === calls.refused) expect(text).toContain('access token [redacted]');
    }
    await page.close();
  });
});
