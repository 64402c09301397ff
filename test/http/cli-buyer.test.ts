import { beforeAll, describe, expect, it } from 'vitest';
import { useCliSuite } from '../helpers/cli.js';
import { createTenant, type Tenant } from '../helpers/harness.js';

const suite = useCliSuite();
const { admin, quiet } = suite;

let t: Tenant;
beforeAll(async () => {
  t = await createTenant(suite.h);
});

describe('buyer and routing commands', () => {
  it('create, list with caps used, show, update; set and show a routing plan', async () => {
    const id = await quiet([
      'buyer',
      'create',
      t.orgId,
      '--name',
      'Acme',
      '--forward-to',
      '+13125550100',
      '--time-zone',
      'America/Chicago',
      '--schedule',
      '{"mon":[["09:00","17:00"]]}',
      '--states',
      'CA,NV',
      '--caps',
      'daily=100,concurrency=3',
      '--payout',
      '25.00',
      '--min-duration',
      '90',
      '--duplicate-days',
      '30',
    ]);
    expect(id).toMatch(/^buy_[0-9a-f]{32}$/);
    const list = await admin(['buyer', 'list', t.orgId]);
    expect(list.out.split('\n')[0]).toMatch(
      /^BUYER_ID +STATUS +FORWARD_TO +PAYOUT +CAPS USED +NAME$/,
    );
    expect(list.out).toContain('daily 0/100, concurrency 0/3');
    const shown = JSON.parse((await admin(['buyer', 'show', t.orgId, id, '--json'])).out);
    expect(shown).toMatchObject({
      states: ['CA', 'NV'],
      caps: { daily: 100, concurrency: 3, hourly: null },
      payout: { amount: '25.00', min_duration_seconds: 90, duplicate_window_days: 30 },
      schedule: { mon: [['09:00', '17:00']] },
    });
    await quiet(['buyer', 'update', t.orgId, id, '--status', 'paused', '--caps', 'total=5']);
    const updated = JSON.parse((await admin(['buyer', 'show', t.orgId, id, '--json'])).out);
    expect(updated).toMatchObject({ status: 'paused', caps: { total: 5, daily: null } });

    const set = await admin([
      'routing',
      'set',
      t.orgId,
      t.code,
      '--target',
      `${id}:1:3`,
      '--ring-timeout',
      '15',
      '--fallback',
      'hangup',
    ]);
    expect(set.out).toContain(`priority 1  weight 3  ${id}`);
    const plan = JSON.parse((await admin(['routing', 'show', t.orgId, t.code, '--json'])).out);
    expect(plan).toMatchObject({
      campaign_code: t.code,
      targets: [{ buyer_id: id, priority: 1, weight: 3 }],
      ring_timeout_seconds: 15,
      fallback: 'hangup',
    });
  });

  it('the organization takes a currency and a key takes a buyer', async () => {
    await quiet(['org', 'update', t.orgId, '--currency', 'EUR']);
    const org = JSON.parse((await admin(['org', 'show', t.orgId, '--json'])).out);
    expect(org.currency).toBe('EUR');
    const id = await quiet([
      'buyer',
      'create',
      t.orgId,
      '--name',
      'B',
      '--forward-to',
      '+13125550101',
    ]);
    const key = JSON.parse(
      (await admin(['key', 'create', t.orgId, '--scopes', 'execute', '--buyer', id, '--json'])).out,
    );
    expect(key.buyer_id).toBe(id);
  });

  it('a bad payout is the API’s 422, said on stderr', async () => {
    const res = await admin([
      'buyer',
      'create',
      t.orgId,
      '--name',
      'X',
      '--forward-to',
      '+13125550102',
      '--payout',
      '12.5',
    ]);
    expect(res.code).not.toBe(0);
    expect(res.err).toContain('payout');
  });
});
