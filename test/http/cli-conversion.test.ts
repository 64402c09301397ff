import { once } from 'node:events';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAdPlatforms } from '../../src/adapters/ad-platforms/index.js';
import { fieldsOf, useCliSuite } from '../helpers/cli.js';
import { DESTINATION_BODIES, useUploads } from '../helpers/conversions.js';
import { CREDS } from '../helpers/fake-ad-platforms.js';
import { createTenant, dni, json, type Tenant } from '../helpers/harness.js';
import { recordCall, report } from '../helpers/reports.js';

const suite = useCliSuite({
  privateDatabase: 'the upload worker claims every organization’s uploads',
});
const { admin, quiet } = suite;
const u = useUploads(suite.h);

let t: Tenant;
let secretsFile: string;
beforeAll(async () => {
  t = await createTenant(suite.h);
  secretsFile = join(mkdtempSync(join(tmpdir(), 'cli-conv-')), 'google.json');
  writeFileSync(secretsFile, JSON.stringify(CREDS.google));
});

describe('destination and upload commands', () => {
  it('create from a secrets file, list masked, test, then upload status, retry and replay', async () => {
    const h = suite.h;
    h.clock.set('2026-03-02T15:00:00Z');
    const id = await quiet([
      'destination',
      'create',
      t.orgId,
      '--platform',
      'google_ads',
      '--name',
      'Google',
      '--settings',
      JSON.stringify(DESTINATION_BODIES.google_ads.settings),
      '--secrets',
      `@${secretsFile}`,
      '--value',
      '99',
      '--currency',
      'EUR',
    ]);
    expect(id).toMatch(/^cdst_/);
    const list = await admin(['destination', 'list', t.orgId]);
    expect(list.out.split('\n')[0]).toMatch(
      /^DESTINATION_ID +PLATFORM +API +ENABLED +NAME +CAMPAIGNS$/,
    );
    expect(list.out).toContain(id);
    const shown = await admin(['destination', 'show', t.orgId, id, '--json']);
    for (const s of Object.values(CREDS.google)) expect(shown.out + list.out).not.toContain(s);
    expect(JSON.parse(shown.out).value).toEqual({ amount: 99, currency: 'EUR' });

    const tested = await admin(['destination', 'test', t.orgId, id, '--json']);
    expect(JSON.parse(tested.out)).toMatchObject({ ok: true, platform: 'google_ads' });

    let fail = true;
    u.fake.script = (s) =>
      s.path.endsWith(':uploadClickConversions') && fail
        ? { status: 400, body: { error: { code: 400, status: 'INVALID_ARGUMENT', message: 'no' } } }
        : null;
    const s = json(
      await dni(h, t.key, { campaign_code: t.code, visitor_id: 'cli', gclid: 'G-cli' }),
    );
    const callId = await recordCall(h, t, { to: s.tracking_number });
    await report(h, t.key, t.code, { call_id: callId, report_id: 'cli-1', disposition: 'success' });
    await u.worker.tick();
    fail = false;

    const status = await admin(['upload', 'status', t.orgId, id]);
    expect(status.code, status.err).toBe(0);
    expect(status.out).toContain('pending: 0  sent: 0  failed: 1');
    expect(status.out).toContain('rejected_by_platform: 1');
    const listed = await admin(['upload', 'list', t.orgId, id, '--status', 'failed']);
    expect(listed.out).toContain(callId);

    expect(await quiet(['upload', 'retry', t.orgId, id])).toBe('1');
    await u.worker.tick();
    const after = await admin(['upload', 'status', t.orgId, id]);
    expect(after.out).toContain('sent: 1  failed: 0');
    expect(await quiet(['upload', 'replay', t.orgId, id, '--call-id', callId])).toBe('1');
    await u.worker.tick();
    const attempts = await admin(['upload', 'attempts', t.orgId, id, '--json']);
    expect(JSON.parse(attempts.out).attempts.map((a: any) => a.outcome)).toEqual([
      'sent',
      'sent',
      'failed',
    ]);
    expect(u.fake.google.filter((c) => c.orderId === callId)).toHaveLength(1);

    const updated = await admin(['destination', 'update', t.orgId, id, '--name', 'Renamed']);
    expect(fieldsOf(updated.out).name).toBe('Renamed');
    const gone = await admin(['destination', 'delete', t.orgId, id]);
    expect(gone.code, gone.err).toBe(0);
    expect(await admin(['destination', 'list', t.orgId])).toMatchObject({
      out: '(no conversion destinations)\n',
    });
  });
});

describe('destination test: the exit code says whether the platform accepted the sample', () => {
  const create = async (platform: 'google_ads' | 'microsoft_ads', secrets: object) => {
    const file = join(mkdtempSync(join(tmpdir(), 'cli-conv-')), 'secrets.json');
    writeFileSync(file, JSON.stringify(secrets));
    return quiet([
      'destination',
      'create',
      t.orgId,
      '--platform',
      platform,
      '--name',
      `${platform} test`,
      '--settings',
      JSON.stringify(DESTINATION_BODIES[platform].settings),
      '--secrets',
      `@${file}`,
    ]);
  };

  it('0 on good credentials; Microsoft’s test sends a request and says what it checked', async () => {
    const id = await create('microsoft_ads', CREDS.microsoft);
    const before = u.fake.requests.length;
    const tested = await admin(['destination', 'test', t.orgId, id, '--json']);
    expect(tested.code, tested.err).toBe(0);
    const body = JSON.parse(tested.out);
    expect(body).toMatchObject({
      ok: true,
      answer: { conversion_goal: { name: 'Qualified call', status: 'Active' } },
    });
    expect(body.checked).toContain(
      'an offline conversion goal named settings.conversion_name exists in the account',
    );
    expect(u.fake.requests.slice(before).map((r) => r.path)).toContain(
      '/microsoft/CampaignManagement/v13/ConversionGoals/QueryByIds',
    );
  });

  it('3 on a refused credential, with the reason and nothing checked', async () => {
    const id = await create('google_ads', {
      ...CREDS.google,
      refresh_token: '1//revoked-0000000000',
    });
    const tested = await admin(['destination', 'test', t.orgId, id, '--json']);
    expect(tested.code).toBe(3);
    expect(JSON.parse(tested.out)).toMatchObject({
      ok: false,
      checked: [],
      result: { state: 'failed', code: 'auth_failed' },
    });
    expect(tested.out).not.toContain('1//revoked-0000000000');
  });

  it('3 when the platform cannot be reached', async () => {
    const id = await create('google_ads', CREDS.google);
    const kept = suite.h.deps.conversions!;
    const closed = http.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    const urls = Object.fromEntries(
      Object.entries(u.fake.urls()).map(([k, v]) => [
        k,
        v.replace(u.fake.base, `http://127.0.0.1:${port}`),
      ]),
    ) as ReturnType<typeof u.fake.urls>;
    suite.h.deps.conversions = { box: kept.box, platforms: createAdPlatforms(urls, 2_000) };
    try {
      const tested = await admin(['destination', 'test', t.orgId, id]);
      expect(tested.code).toBe(3);
      expect(tested.out).toMatch(/ok: +false/);
      expect(tested.out).toContain('token endpoint: connection refused');
    } finally {
      suite.h.deps.conversions = kept;
    }
  });
});

describe('upload replay --since backfills a destination created after its calls', () => {
  it('queues the eligible calls and names why each other was skipped', async () => {
    const h = suite.h;
    const b = await createTenant(h, { numbers: 4 });
    const convert = async (session: Record<string, string>, verdicts: string[]) => {
      const s = json(
        await dni(h, b.key, {
          campaign_code: b.code,
          visitor_id: `bf-${Math.random()}`,
          ...session,
        }),
      );
      const callId = await recordCall(h, b, { to: s.tracking_number });
      for (const [i, disposition] of verdicts.entries()) {
        const res = await report(h, b.key, b.code, {
          call_id: callId,
          report_id: `${callId}-${i}`,
          disposition,
        });
        expect(res.statusCode).toBe(201);
      }
      return callId;
    };
    h.clock.set('2026-01-01T12:00:00Z');
    const old = await convert({ gclid: 'G-old' }, ['success']);
    h.clock.set('2026-04-20T12:00:00Z');
    const good = await convert({ gclid: 'G-backfill' }, ['success']);
    const noClick = await convert({ landing_url: 'https://shop.example/' }, ['success']);
    const refused = await convert({ gclid: 'G-refused' }, ['success', 'rejected']);
    h.clock.set('2026-04-21T12:00:00Z');
    const file = join(mkdtempSync(join(tmpdir(), 'cli-conv-')), 'g.json');
    writeFileSync(file, JSON.stringify(CREDS.google));
    const id = await quiet([
      'destination',
      'create',
      b.orgId,
      '--platform',
      'google_ads',
      '--name',
      'Late',
      '--settings',
      JSON.stringify(DESTINATION_BODIES.google_ads.settings),
      '--secrets',
      `@${file}`,
    ]);
    const replay = await admin([
      'upload',
      'replay',
      b.orgId,
      id,
      '--since',
      '2025-12-01T00:00:00Z',
    ]);
    expect(replay.code, replay.err).toBe(0);
    const lines = replay.out.trim().split('\n');
    expect(lines[0]).toBe('queued 1');
    expect(lines[1]).toBe('skipped 3:');
    expect(lines.slice(2).sort()).toEqual(
      [
        `  ${old}  too_old: older than the platform's upload window`,
        `  ${noClick}  no_click_id: the session carries no click id this platform accepts`,
        `  ${refused}  rejected_by_buyer: the buyer rejected the call`,
      ].sort(),
    );
    const before = u.fake.google.length;
    await u.worker.tick();
    expect(u.fake.google.slice(before).map((c) => c.orderId)).toEqual([good]);
    // Run again: the queued call has its upload now, and nothing is queued twice.
    expect(await quiet(['upload', 'replay', b.orgId, id, '--since', '2026-04-20T00:00:00Z'])).toBe(
      '1',
    );
    await u.worker.tick();
    expect(u.fake.google.filter((c) => c.orderId === good)).toHaveLength(1);
  });
});
