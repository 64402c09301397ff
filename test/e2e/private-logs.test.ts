import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServer } from '../helpers/server-process.js';
import { migratedDataDir, storeKind } from '../helpers/store.js';

const ADMIN_TOKEN = 'adm_private_logs_token';
const seed = String(Math.floor(Math.random() * 9_000_000) + 1_000_000);
// Every number and visitor id this run sends; none may appear in its log.
const pool = [0, 1, 2].map((i) => `+1415${String(Number(seed) + i).padStart(7, '0')}`);
const contact = `+1212${String(Number(seed) + 7).padStart(7, '0')}`;
const caller = `+1312${String(Number(seed) + 9).padStart(7, '0')}`;
const visitors = ['visitor-alpha-7f3e', 'visitor-beta-19ac', 'visitor-gamma-b0d2'];

/** Full E.164, the national digits alone, and the URL-encoded form. */
const forms = (e164: string) => [e164, e164.slice(2), encodeURIComponent(e164)];

describe.skipIf(storeKind !== 'pglite')('a full run logs no phone number or visitor id', () => {
  const dir = migratedDataDir('tracking-private-logs');
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('DNI, calls, reports, touches, consents, bad input: none in the log', {
    timeout: 240_000,
  }, async () => {
    server = await startServer({ DATA_DIR: dir, ADMIN_TOKEN, LOG_LEVEL: 'debug' });
    const s = server;
    const call = async (
      base: string,
      method: string,
      path: string,
      body?: unknown,
      auth = ADMIN_TOKEN,
    ) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${auth}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as any };
    };
    const org = await call(s.adminUrl, 'POST', '/admin/orgs', {
      name: 'Logs',
      tracking_enabled: true,
    });
    const orgId = org.body.org_id as string;
    const key = (
      await call(s.adminUrl, 'POST', `/admin/orgs/${orgId}/keys`, { scopes: ['enroll', 'execute'] })
    ).body.api_key as string;
    expect(
      (
        await call(s.adminUrl, 'POST', `/admin/orgs/${orgId}/campaigns`, {
          code: 'log',
          name: 'Logs',
          numbers: pool,
          config: { caller_id: '+12125550100' },
        })
      ).status,
    ).toBe(201);

    const numbers: string[] = [];
    for (const visitor_id of visitors) {
      const r = await call(
        s.apiUrl,
        'POST',
        '/dni/session',
        { campaign_code: 'log', visitor_id },
        key,
      );
      expect(r.status).toBe(201);
      numbers.push(r.body.tracking_number);
    }
    // Bad input carrying a visitor id and a number: 422, and still nothing in the log.
    expect(
      (
        await call(
          s.apiUrl,
          'POST',
          '/dni/session',
          { campaign_code: 'log', visitor_id: visitors[0], extra: caller },
          key,
        )
      ).status,
    ).toBe(422);

    const recorded = await call(s.adminUrl, 'POST', `/admin/orgs/${orgId}/calls`, {
      to: numbers[0],
      from: caller,
    });
    expect(recorded.status).toBe(201);
    const report = await call(
      s.apiUrl,
      'POST',
      '/dni/campaigns/log/buyer-report',
      {
        call_id: recorded.body.call_id,
        report_id: 'r-1',
        disposition: 'success',
        notes: `called back on ${caller}`,
      },
      key,
    );
    expect(report.status).toBe(201);

    const path = `/admin/orgs/${orgId}/consents/${encodeURIComponent(contact)}`;
    expect(
      (await call(s.adminUrl, 'PUT', path, { tier: 'pewc', captured_at: '2026-01-01T00:00:00Z' }))
        .status,
    ).toBe(200);
    expect((await call(s.adminUrl, 'GET', path)).status).toBe(200);
    const t = await call(
      s.apiUrl,
      'POST',
      '/tracking/campaigns/log/outbound',
      {
        to_e164: contact,
        channel: 'sms',
        consent_basis: 'pewc',
        idempotency_key: 'k-logs',
      },
      key,
    );
    expect([200, 202]).toContain(t.status);
    // An unknown number: looked up by value, refused, and logged without it.
    expect(
      (
        await call(s.adminUrl, 'POST', `/admin/orgs/${orgId}/calls`, {
          to: '+14155550000',
          from: caller,
        })
      ).status,
    ).toBe(404);

    await s.kill('SIGTERM');
    const log = s.output();
    expect(log).toContain('request completed'); // the log did record the run
    for (const secret of [...pool, ...numbers, contact, caller, '+14155550000'].flatMap(forms)) {
      expect(log, `log contains ${secret}`).not.toContain(secret);
    }
    for (const v of visitors) expect(log, `log contains ${v}`).not.toContain(v);
  });
});
