import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
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
