import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PHONE_CARDS } from '../../src/console/table.js';
import {
  browserMissing,
  seriousViolations,
  tablesScrollingSideways,
  useBrowser,
} from '../helpers/browser.js';
import { freshEmail, makeUser, PASSWORD, useConsole } from '../helpers/console.js';
import { ADMIN_TOKEN, adminCall, freshNumbers, useHarness } from '../helpers/harness.js';
import { freshContact, grant, importNationalList, touch } from '../helpers/outbound.js';
import { PUBLIC_BASE, smsParams, TWILIO_TOKEN, twilioPost } from '../helpers/twilio-webhook.js';
import {
  allowPrivateTargets,
  createWebhook,
  Receiver,
  webhookWorker,
} from '../helpers/webhooks.js';

/**
 * The console in Debian's Chromium (playwright-core) on a real listener: an
 * operator sets up an organization, a manager accepts the invitation, traffic
 * arrives through the public API, and the Overview shows what the reports
 * count. Every page visited is checked for its CSP and by axe-core, and
 * carries hostile strings that must stay text. CONSOLE_SCREENSHOTS=dir saves
 * each page at 1400 px and 390 px (docs/img holds the committed ones).
 */
const SHOTS = process.env.CONSOLE_SCREENSHOTS;
if (browserMissing) console.warn('console-browser: skipped, /usr/bin/chromium is missing');

const h = useHarness({
  listen: 'app',
  twilio: { authToken: TWILIO_TOKEN, publicBaseUrl: PUBLIC_BASE },
  privateDatabase: "the webhook worker delivers every organization's pending events",
});
const c = useConsole(h, { listen: true });

const HOSTILE = {
  name: '<script>window.__pwned=1</script>"><img src=x onerror="window.__pwned=2">',
  source: '"><img src=x onerror=window.__pwned=3>',
  rtl: 'invoice\u202Etxt.exe',
  notes: '<script>window.__pwned=4</script> paid \u202Edlrow',
  stop: 'STOP <script>window.__pwned=5</script> \u202Eplease',
  optOut: '"><img src=x onerror="window.__pwned=6"> asked by phone',
  hookPath: '/hooks/"><img src=x onerror=window.__pwned=7>',
};
const SOURCES = [
  'google',
  'newsletter',
  'facebook',
  'bing',
  'google',
  'google',
  'newsletter',
  'direct',
];

// A browser, a week of traffic and axe on every page: minutes, not the default 30 s, on a busy machine.
describe.skipIf(browserMissing)('the console in headless Chromium', { timeout: 180_000 }, () => {
  const browser = useBrowser();
  let orgId = '';
  let apiKey = '';
  let invitation = '';
  let managerEmail = '';
  const numbers = freshNumbers(6);
  const hostileNumbers = freshNumbers(2);
  const audited = new Map<string, string[]>();

  beforeAll(async () => {
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  }, 60_000);

  /** Goes to a page and checks what every page must have; returns the answer. */
  async function visit(page: Page, path: string, name: string): Promise<Response> {
    const res = (await page.goto(`${c.url}${path}`))!;
    expect(res.status(), path).toBe(200);
    const csp = res.headers()['content-security-policy'] ?? '';
    expect(csp, path).toContain("frame-ancestors 'none'");
    expect(csp, path).not.toContain('unsafe-inline');
    expect(res.headers()['x-content-type-options']).toBe('nosniff');
    expect(await page.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
    const bad = await seriousViolations(page);
    audited.set(
      name,
      bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    );
    expect(audited.get(name), `axe on ${name}`).toEqual([]);
    // At a phone's width the page itself never scrolls sideways (wide tables scroll in their box).
    await page.setViewportSize({ width: 390, height: 800 });
    const widths = await page.evaluate(() => {
      const g = globalThis as unknown as {
        document: { scrollingElement: { scrollWidth: number } };
        innerWidth: number;
      };
      return { scroll: g.document.scrollingElement.scrollWidth, inner: g.innerWidth };
    });
    expect(widths.scroll, `${name} at 390 px`).toBeLessThanOrEqual(widths.inner);
    // Nor do tables of records (a card per row) or of four columns, and no time wraps.
    const squeezed = await page.evaluate(() => {
      type El = {
        scrollWidth: number;
        clientWidth: number;
        textContent: string;
        getAttribute(n: string): string | null;
        querySelector(s: string): { className: string } | null;
        getClientRects(): { length: number };
      };
      const all = (s: string) =>
        [
          ...(
            globalThis as unknown as { document: { querySelectorAll(s: string): Iterable<El> } }
          ).document.querySelectorAll(s),
        ] as El[];
      const fitting = all('.scroll').filter((s) =>
        /\b(stacked|compact)\b/.test(s.querySelector('table')?.className ?? ''),
      );
      return [
        ...fitting
          .filter((s) => s.scrollWidth > s.clientWidth)
          .map((s) => `${s.getAttribute('aria-label')} scrolls sideways`),
        ...all('td time')
          .filter((t) => t.getClientRects().length > 1)
          .map((t) => `${t.textContent} wraps`),
      ];
    });
    expect(squeezed, `${name} at 390 px`).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 800 });
    // At a laptop's width every table fits: no column hides off the right edge.
    expect(await tablesScrollingSideways(page), `${name} at 1280 px`).toEqual([]);
    if (SHOTS) {
      for (const width of [1400, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({
          path: join(SHOTS, `console-${name}-${width}.png`),
          fullPage: true,
        });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    }
    return res;
  }

  async function signIn(page: Page, email: string) {
    await page.goto(`${c.url}/`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname !== '/login');
  }

  it('an operator creates an organization, a key, a manager invitation and a campaign', async () => {
    const operator = await makeUser(h, 'operator');
    const page = await browser.context.newPage();
    await signIn(page, operator.email);
    await page.goto(`${c.url}/operator/orgs`);
    await page.getByLabel('Name').fill('Harbor Plumbing & Drains');
    await page.getByLabel('Tracking on').check();
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.waitForURL(/\/operator\/orgs\/org_/);
    orgId = new URL(page.url()).pathname.split('/').at(-1)!;

    await page.getByLabel('Label').fill('website');
    await page.getByLabel(/execute/).check();
    await page.getByRole('button', { name: 'Issue key' }).click();
    apiKey = (await page.locator('#secret').textContent())!.trim();
    expect(apiKey).toMatch(/^svc_live_[0-9a-f]{40}$/);

    managerEmail = freshEmail('manager');
    await page.getByLabel('Email').fill(managerEmail);
    await page.getByLabel('Role').selectOption('manager');
    await page.getByRole('button', { name: 'Make invitation link' }).click();
    invitation = (await page.locator('#secret').textContent())!.trim();
    expect(invitation.startsWith(`${c.url}/invite/`)).toBe(true);
    await visit(page, `/operator/orgs/${orgId}`, 'operator-org');
    await visit(page, '/operator/orgs', 'operator-orgs');
    await visit(page, '/operator/users', 'operator-users');

    for (const [code, name, nums] of [
      ['SP', 'Spring drain cleaning', numbers],
      ['X', HOSTILE.name, hostileNumbers],
    ] as const) {
      await page.goto(`${c.url}/orgs/${orgId}/campaigns`);
      await page.getByLabel('Code').fill(code);
      await page.getByLabel('Name', { exact: true }).fill(name);
      await page.getByLabel('Tracking numbers').fill(nums.join('\n'));
      await page.getByRole('button', { name: 'Create campaign' }).click();
      await page.waitForURL(new RegExp(`/campaigns/${code}\\?notice=created`));
    }
    await page.close();
  });

  it('the manager accepts, traffic arrives, and the Overview shows what the reports count', async () => {
    const page = await browser.context.newPage();
    await browser.context.clearCookies();
    await page.goto(invitation);
    await page.getByLabel(/password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Accept' }).click();
    // Accepting signs the new person in, on the organization they joined.
    await page.waitForURL(new RegExp(`/orgs/${orgId}/overview$`));

    // A week of visits through the public API, 10 minutes apart; every third one calls.
    const base = h.clock.now();
    const api = (path: string, body: object) =>
      fetch(`${h.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    let n = 0;
    for (let day = 6; day >= 0; day--) {
      h.clock.ms = base - day * 86_400_000 - 3 * 3_600_000;
      for (let i = 0; i < 8; i++) {
        const source = SOURCES[(i + day) % SOURCES.length]!;
        const hostile = i === 7 && day % 3 === 0;
        const landing = hostile
          ? `https://harbor.example/drains?utm_source=${encodeURIComponent(HOSTILE.source)}&utm_campaign=${encodeURIComponent(HOSTILE.rtl)}`
          : `https://harbor.example/drains?utm_source=${source}&utm_medium=cpc&utm_campaign=spring`;
        const res = await api('/dni/session', {
          campaign_code: hostile ? 'X' : 'SP',
          visitor_id: `v-${day}-${i}`,
          landing_url: landing,
          ...(source === 'google' ? { gclid: `gclid-${n}` } : {}),
        });
        expect(res.status, await res.clone().text()).toBe(201);
        const session = (await res.json()) as { tracking_number: string };
        if (i % 3 === 0 || hostile) {
          h.clock.advance(60);
          const call = await h.admin.inject({
            method: 'POST',
            url: `/admin/orgs/${orgId}/calls`,
            headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
            payload: { to: session.tracking_number, from: `+1312555${String(1000 + n).slice(-4)}` },
          });
          expect(call.statusCode).toBe(201);
          const { call_id } = call.json() as { call_id: string };
          const report = await api(`/dni/campaigns/${hostile ? 'X' : 'SP'}/buyer-report`, {
            call_id,
            report_id: `r-${n}`,
            disposition: n % 4 === 3 ? 'rejected' : 'success',
            notes: hostile ? HOSTILE.notes : 'Booked a drain inspection',
          });
          expect(report.status).toBe(201);
        }
        h.clock.advance(10 * 60);
        n++;
      }
    }
    h.clock.ms = base;

    // What the reporting API answers for the page's range (the last 7 days, UTC)…
    const since = new Date(Date.parse(new Date(base).toISOString().slice(0, 10)) - 6 * 86_400_000);
    const until = new Date(since.getTime() + 7 * 86_400_000);
    const answer = await h.admin.inject({
      method: 'GET',
      url: `/admin/orgs/${orgId}/reports/traffic?from=${since.toISOString()}&to=${until.toISOString()}&bucket=none`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(answer.statusCode).toBe(200);
    const report = answer.json() as { totals: Record<string, number> };
    // …and the raw rows it summarises.
    const [raw] = await h.store.query<{ sessions: number; calls: number; success: number }>(
      `select (select count(*)::int from dni_sessions where org_id = $1 and created_at >= $2 and created_at < $3) as sessions,
              (select count(*)::int from calls where org_id = $1 and started_at >= $2 and started_at < $3) as calls,
              (select count(*)::int from calls where org_id = $1 and started_at >= $2 and started_at < $3 and disposition = 'success') as success`,
      [orgId, since, until],
    );
    expect(raw).toEqual({ sessions: 56, calls: expect.any(Number), success: expect.any(Number) });
    expect(report.totals).toMatchObject({
      sessions: raw!.sessions,
      calls: raw!.calls,
      buyer_success: raw!.success,
    });

    await visit(page, `/orgs/${orgId}/overview`, 'overview');
    const shown = async (metric: string) =>
      Number(
        (await page.locator(`[data-metric="${metric}"]`).textContent())!.replace(/[^\d]/g, ''),
      );
    expect(await shown('sessions')).toBe(report.totals.sessions);
    expect(await shown('calls')).toBe(report.totals.calls);
    expect(await shown('buyer_success')).toBe(report.totals.buyer_success);
    expect(await shown('unique_callers')).toBe(report.totals.unique_callers);
    await expect(
      page.getByRole('img', { name: /Sessions, calls and buyer successes per day/ }).count(),
    ).resolves.toBe(1);
    // The hostile UTM source is a row of the sources table, as text.
    expect(await page.locator('table').allTextContents()).toEqual(
      expect.arrayContaining([expect.stringContaining(HOSTILE.source)]),
    );
    await page.close();
  });

  /** A table of the page by its caption: first cell → the numbers of the other cells. */
  async function tableOf(page: Page, caption: string): Promise<Record<string, number[]>> {
    const block = page
      .locator('section.table-block')
      .filter({ has: page.getByRole('heading', { name: caption, exact: true }) });
    const rows = await block
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
      );
    return Object.fromEntries(
      rows.map(([k, ...v]) => [k!, v.map((x) => Number(x.replace(/[^\d]/g, '') || Number.NaN))]),
    );
  }
  const metricOf = async (page: Page, metric: string) =>
    Number((await page.locator(`[data-metric="${metric}"]`).textContent())!.replace(/[^\d]/g, ''));

  it('touches, opt-outs and webhook deliveries: Compliance and Webhooks show what the rows count', async () => {
    // Monday 10:00 in New York, 7:00 in Los Angeles (inside its quiet hours).
    const base = h.clock.now();
    const day = new Date(base).toISOString().slice(0, 10);
    const since = new Date(Date.parse(day) - 6 * 86_400_000);
    const until = new Date(since.getTime() + 7 * 86_400_000);
    allowPrivateTargets(h);
    const ok = await new Receiver(() => 200).start('/hooks/ok');
    const failing = await new Receiver(() => 500).start(HOSTILE.hookPath);
    try {
      const okHook = await createWebhook(h, orgId, ok.url);
      const badHook = await createWebhook(h, orgId, failing.url);
      const [callerId] = freshNumbers(1);
      await adminCall(h, 'PATCH', `/admin/orgs/${orgId}/campaigns/SP`, {
        config: {
          caller_id: callerId,
          recording_url: 'https://cdn.example/drop.mp3',
          templates: { default: { text: 'Your drain inspection is due.' } },
        },
      });
      await importNationalList(h, orgId, `${freshContact(202)}\n${freshContact(202)}\n`);

      const ny = freshContact(212);
      const tx = freshContact(512);
      const ca = freshContact(213);
      const fl = freshContact(305);
      const stopped = freshContact(718);
      const byPhone = freshContact(312);
      for (const e164 of [ny, tx, ca, stopped, byPhone]) await grant(h, orgId, e164);
      // A STOP by text to a tracking number of the pool (signed as Twilio signs), and an
      // opt-out taken by phone and entered through the admin API: both with hostile words.
      const sms = await twilioPost(
        h,
        '/carrier/twilio/message',
        smsParams(stopped, numbers[0]!, HOSTILE.stop),
      );
      expect(sms.statusCode).toBe(200);
      await adminCall(
        h,
        'POST',
        `/admin/orgs/${orgId}/consents/${encodeURIComponent(byPhone)}/revoke`,
        {
          kind: 'opt_out',
          reason: HOSTILE.optOut,
        },
      );

      const decide = async (to: string, channel: string) => {
        h.clock.advance(60);
        const res = await touch(h, apiKey, 'SP', { to_e164: to, channel, consent_basis: 'pewc' });
        expect(res.statusCode, res.body).toBeLessThan(300);
        return res.json() as { status: string; reasons: { code: string }[] };
      };
      const decided = [
        await decide(ny, 'call'),
        await decide(ny, 'sms'),
        await decide(tx, 'call'),
        await decide(tx, 'voicemail'),
        await decide(ca, 'call'),
        await decide(fl, 'sms'),
        await decide(fl, 'call'),
        await decide(stopped, 'sms'),
        await decide(byPhone, 'call'),
      ];
      const statuses = decided.map((d) => d.status);
      expect(statuses.filter((x) => x === 'queued').length).toBeGreaterThanOrEqual(3);
      const codes = new Set(decided.flatMap((d) => d.reasons.map((r) => r.code)));
      expect([...codes]).toEqual(
        expect.arrayContaining(['consent_missing', 'consent_revoked', 'quiet_hours']),
      );

      // The worker delivers: 200 for one endpoint, 500 (then given up) for the other.
      const { worker } = webhookWorker(h, {
        maxAttempts: 2,
        backoffBaseMs: 10_000,
        backoffMaxMs: 10_000,
      });
      const drain = async () => {
        while ((await worker.tick()) > 0);
      };
      await drain();
      h.clock.advance(60);
      await drain();
      // One more placed touch after the last round: its failing delivery waits for a retry.
      await decide(tx, 'sms');
      await drain();
      h.clock.ms = base;

      // Raw rows: touches in the range, by channel, state and reason; opt-outs; deliveries.
      const q = <T extends Record<string, unknown>>(sql: string) =>
        h.store.query<T>(sql, [orgId, since, until]);
      const inRange = 'org_id = $1 and decided_at >= $2 and decided_at < $3';
      type Count = { key: string; touches: number; placed: number; blocked: number };
      const counts = (key: string) =>
        q<Count>(
          `select ${key} as key, count(*)::int as touches, count(*) filter (where placed)::int as placed,
                  count(*) filter (where not placed)::int as blocked
             from outbound_touches where ${inRange} group by 1`,
        );
      const [total] = await q<Omit<Count, 'key'>>(
        `select count(*)::int as touches, count(*) filter (where placed)::int as placed,
                count(*) filter (where not placed)::int as blocked from outbound_touches where ${inRange}`,
      );
      expect(total!.touches).toBe(decided.length + 1);
      const byChannel = await counts('channel');
      const byState = await counts(`coalesce(checks->'quiet_hours'->>'state', 'unknown')`);
      const byReason = await q<Count>(
        `select x->>'code' as key, count(distinct t.id)::int as touches, 0 as placed,
                count(distinct t.id)::int as blocked
           from outbound_touches t cross join jsonb_array_elements(t.reasons) x
          where t.${inRange.replaceAll(' and ', ' and t.')} group by 1`,
      );
      expect(byReason.length).toBeGreaterThanOrEqual(3);
      const [optOuts] = await q<{ n: number }>(
        `select count(*)::int as n from consent_events
          where org_id = $1 and kind = 'opt_out' and recorded_at >= $2 and recorded_at < $3`,
      );
      expect(optOuts!.n).toBe(2);
      type Deliveries = { total: number; delivered: number; failed: number; retrying: number };
      const hooks = await q<Deliveries & { endpoint_id: string }>(
        `select endpoint_id, count(*)::int as total,
                count(*) filter (where state = 'delivered')::int as delivered,
                count(*) filter (where state = 'failed')::int as failed,
                count(*) filter (where state = 'pending' and attempts > 0)::int as retrying
           from webhook_deliveries where org_id = $1 and created_at >= $2 and created_at < $3
          group by endpoint_id`,
      );
      const ofHook = (id: string) => hooks.find((x) => x.endpoint_id === id)!;
      expect(ofHook(okHook.webhook_id).delivered).toBe(ok.received.length);
      expect(ofHook(okHook.webhook_id)).toMatchObject({ failed: 0, retrying: 0 });
      expect(ofHook(badHook.webhook_id).failed).toBeGreaterThan(0);
      expect(ofHook(badHook.webhook_id).retrying).toBeGreaterThan(0);
      expect(ofHook(badHook.webhook_id).delivered).toBe(0);

      // The reporting API over the same range.
      const touchReport = async (groupBy: string) => {
        const res = await h.admin.inject({
          method: 'GET',
          url: `/admin/orgs/${orgId}/reports/touches?from=${since.toISOString()}&to=${until.toISOString()}&bucket=none&group_by=${groupBy}`,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        expect(res.statusCode, res.body).toBe(200);
        return res.json() as {
          rows: (Record<string, string | number | null> & Omit<Count, 'key'>)[];
          totals: Omit<Count, 'key'>;
        };
      };

      const page = await browser.context.newPage();
      await visit(page, `/orgs/${orgId}/compliance`, 'compliance');
      for (const m of ['touches', 'placed', 'blocked'] as const)
        expect(await metricOf(page, m), m).toBe(total![m]);
      expect(await metricOf(page, 'opt_outs')).toBe(optOuts!.n);
      for (const [caption, key, raw] of [
        ['Touches by reason', 'reason', byReason],
        ['By channel', 'channel', byChannel],
        ['By state', 'state', byState],
      ] as const) {
        const shown = await tableOf(page, caption);
        for (const r of raw)
          expect(shown[r.key], `${caption}: ${r.key}`).toEqual([r.touches, r.placed, r.blocked]);
        const api = await touchReport(key);
        expect(api.totals).toMatchObject(total!);
        for (const r of api.rows)
          expect(shown[String(r[key] ?? '(none)')], `${caption} (API): ${r[key]}`).toEqual([
            r.touches,
            r.placed,
            r.blocked,
          ]);
        expect(Object.keys(shown).length).toBe(api.rows.length);
      }
      const main = (await page.locator('main').textContent())!;
      expect(main).toContain(HOSTILE.optOut);
      expect(main).toContain('STOP <script>window.__pwned=5</script> [U+202E]please');

      await visit(page, `/orgs/${orgId}/webhooks`, 'webhooks');
      const sum = (k: keyof Deliveries) => hooks.reduce((n, x) => n + x[k], 0);
      expect(await metricOf(page, 'deliveries')).toBe(sum('total'));
      expect(await metricOf(page, 'delivered')).toBe(sum('delivered'));
      expect(await metricOf(page, 'failed')).toBe(sum('failed'));
      expect(await metricOf(page, 'retrying')).toBe(sum('retrying'));
      const endpoints = await tableOf(page, 'Endpoints');
      for (const hook of [okHook, badHook]) {
        const x = ofHook(hook.webhook_id);
        expect(endpoints[hook.url]!.slice(2, 6), hook.url).toEqual([
          x.total,
          x.delivered,
          x.failed,
          x.retrying,
        ]);
      }
      expect(
        await page
          .locator('section.table-block')
          .filter({ has: page.getByRole('heading', { name: 'Failed deliveries', exact: true }) })
          .locator('tbody tr')
          .count(),
      ).toBe(sum('failed'));
      expect(await page.locator('main').textContent()).toContain(badHook.url);
      // At a phone's width a long list of cards shows its first ones, then a link to the rest.
      const recent = page
        .locator('section.table-block')
        .filter({ has: page.getByRole('heading', { name: 'Recent deliveries', exact: true }) });
      const shownCards = () =>
        recent
          .locator('tbody tr')
          .evaluateAll(
            (trs) =>
              (trs as unknown as { getClientRects(): { length: number } }[]).filter(
                (t) => t.getClientRects().length > 0,
              ).length,
          );
      const all = Math.min(sum('total'), 100);
      expect(all).toBeGreaterThan(PHONE_CARDS);
      expect(await shownCards()).toBe(all);
      await page.setViewportSize({ width: 390, height: 800 });
      expect(await shownCards()).toBe(PHONE_CARDS);
      await recent.getByRole('link', { name: `Show all ${all} recent deliveries` }).click();
      expect(await shownCards()).toBe(all);
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.close();
    } finally {
      await ok.close();
      await failing.close();
    }
  });

  it('the manager drills down to a call and sees its attribution and buyer report', async () => {
    const page = await browser.context.newPage();
    await visit(page, `/orgs/${orgId}/calls`, 'calls');
    await page.getByLabel('Search').fill('"><img');
    await page.getByRole('button', { name: 'Show calls' }).click();
    await page.waitForURL(/q=/);
    const links = page.locator('tbody tr td:first-child a');
    expect(await links.count()).toBeGreaterThan(0);
    await links.first().click();
    await page.waitForURL(/\/calls\/call_/);
    const path = new URL(page.url()).pathname;
    await visit(page, path, 'call');
    const text = (await page.locator('main').textContent())!;
    expect(text).toContain('Rule');
    expect(text).toContain('session');
    expect(text).toContain(HOSTILE.source);
    expect(text).toContain('[U+202E]');
    expect(text).toContain('<script>window.__pwned=4</script>');
    expect(text).toMatch(/success|rejected/);

    await visit(page, `/orgs/${orgId}/campaigns`, 'campaigns');
    expect(await page.locator('main').textContent()).toContain(HOSTILE.name);
    await visit(page, `/orgs/${orgId}/campaigns/SP`, 'pool');
    await visit(page, `/orgs/${orgId}/people`, 'people');
    await visit(page, '/account', 'account');
    await page.close();
  });

  it('the login page passes axe too', async () => {
    await browser.context.clearCookies();
    const page = await browser.context.newPage();
    await visit(page, '/login', 'login');
    await page.close();
  });
});
