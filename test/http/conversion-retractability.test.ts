import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { claim, record, run, type UploadDeps } from '../../src/domain/conversions/delivery.js';
import { SecretBox } from '../../src/domain/conversions/secrets.js';
import {
  conversionSteps,
  createDestination,
  destinationCall,
  GOOGLE_NO_DEV_TOKEN,
  TEST_SECRETS_KEY,
  uploadsOf,
  useUploads,
} from '../helpers/conversions.js';
import { CREDS, type Seen } from '../helpers/fake-ad-platforms.js';
import { adminCall, createTenant, json, type Tenant, useHarness } from '../helpers/harness.js';

/**
 * Retractability is the destination's (src/domain/conversions/retractability.ts): a Google
 * destination on the Data Manager API without a developer token cannot retract, so a buyer's
 * `rejected` report leaves its conversion `not_retractable`, with no retraction row and no
 * request; with a developer token the same destination retracts through conversion adjustments.
 */
const h = useHarness({ privateDatabase: 'the upload worker claims every organization’s uploads' });
const u = useUploads(h);
afterEach(() => {
  u.fake.script = () => null;
});

const DATA_MANAGER = { customer_id: '123-456-7890', conversion_action: '987654321' };
const { call, verdict, drain } = conversionSteps(h, u);

/** Past the first check of the requests Data Manager accepted, and drained: sent. */
async function confirm() {
  h.clock.advance(u.worker.options.confirmAfterMs / 1000);
  await drain();
}

const googleRequests = (from: number): Seen[] =>
  u.fake.requests.slice(from).filter((s) => /^\/(google|datamanager)\//.test(s.path));

const countsOf = async (t: Tenant, id: string) =>
  (await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/conversion-destinations/${id}`)).uploads;

const byStatus = async (t: Tenant, id: string, status: string) =>
  json(
    await destinationCall(
      h,
      'GET',
      `/admin/orgs/${t.orgId}/conversion-destinations/${id}/uploads?status=${status}`,
    ),
  ).items as any[];

describe('Data Manager without a developer token: not retractable', () => {
  it('a rejected report after the upload: the conversion reads not_retractable, nothing is sent', async () => {
    h.clock.set('2026-11-20T15:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: DATA_MANAGER,
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    const callId = await call(t, 'EAIaIQ-nr1');
    await verdict(t, callId, 'success');
    await drain();
    await confirm();
    expect(await uploadsOf(h, t.orgId, d.destination_id)).toMatchObject([{ status: 'sent' }]);

    const from = u.fake.requests.length;
    await verdict(t, callId, 'rejected');
    await drain();
    expect(googleRequests(from)).toEqual([]);
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      call_id: callId,
      kind: 'conversion',
      status: 'not_retractable',
      reason_code: 'not_retractable',
    });
    expect(rows[0].reason).toBe(
      'this destination cannot retract a conversion (the Data Manager API has no retraction, and Google Ads API conversion adjustments need secrets.developer_token, which this destination does not have): the buyer rejected the call after it was uploaded',
    );
    expect(await countsOf(t, d.destination_id)).toMatchObject({
      pending: 0,
      sent: 0,
      failed: 0,
      retracted: 0,
      not_retractable: 1,
    });
    expect((await byStatus(t, d.destination_id, 'not_retractable')).map((r) => r.call_id)).toEqual([
      callId,
    ]);
  });

  it('rejected while the upload is in flight: sent, then not_retractable, no retraction row', async () => {
    h.clock.set('2026-11-20T16:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: DATA_MANAGER,
      secrets: GOOGLE_NO_DEV_TOKEN,
    });
    const callId = await call(t, 'EAIaIQ-nr2');
    await verdict(t, callId, 'success');
    // The worker's round in its three steps, the report arriving between claim and record.
    const deps: UploadDeps = {
      repos: h.deps.repos,
      platforms: h.deps.conversions!.platforms,
      box: new SecretBox(TEST_SECRETS_KEY),
      clock: h.clock,
      logger: pino({ level: 'silent' }),
    };
    const claimed = await claim(deps, u.worker.options);
    expect(claimed.map((c) => c.callId)).toContain(callId);
    await verdict(t, callId, 'rejected');
    await record(deps, await run(deps, claimed, u.worker.options), u.worker.options);
    // Google's report on the request that was in flight: sent, so not retractable.
    await confirm();
    const from = u.fake.requests.length;
    await drain();
    expect(googleRequests(from)).toEqual([]);
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'conversion', status: 'not_retractable' });
    expect(rows[0].reason).toMatch(
      /secrets\.developer_token.*: the buyer rejected the call while it was being uploaded$/,
    );
    expect(await countsOf(t, d.destination_id)).toMatchObject({ sent: 0, not_retractable: 1 });
  });

  it('a retraction written while the destination could retract, its token since removed: not sent, the conversion not_retractable', async () => {
    h.clock.set('2026-11-20T17:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: DATA_MANAGER,
      secrets: CREDS.google,
    });
    const callId = await call(t, 'EAIaIQ-nr3');
    await verdict(t, callId, 'success');
    await drain();
    await confirm();
    await verdict(t, callId, 'rejected');
    const patched = await adminCall(
      h,
      'PATCH',
      `/admin/orgs/${t.orgId}/conversion-destinations/${d.destination_id}`,
      { secrets: { developer_token: '' } },
    );
    expect(Object.keys(patched.secrets).sort()).toEqual([
      'client_id',
      'client_secret',
      'refresh_token',
    ]);
    const from = u.fake.requests.length;
    await drain();
    expect(googleRequests(from)).toEqual([]);
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    expect(rows.map((r) => [r.kind, r.status, r.reason_code]).sort()).toEqual([
      ['conversion', 'not_retractable', 'not_retractable'],
      ['retraction', 'failed', 'not_retractable'],
    ]);
    expect(rows.find((r) => r.kind === 'conversion').reason).toContain('developer_token');
  });
});

describe('retractable destinations', () => {
  it('Data Manager with a developer token: retracted through a conversion adjustment', async () => {
    h.clock.set('2026-11-20T18:00:00Z');
    const t = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'google_ads', {
      settings: DATA_MANAGER,
      secrets: CREDS.google,
    });
    const callId = await call(t, 'EAIaIQ-r1');
    await verdict(t, callId, 'success');
    await drain();
    await confirm();
    const adjustments = u.fake.googleAdjustments.length;
    await verdict(t, callId, 'rejected');
    await drain();
    expect(u.fake.googleAdjustments.slice(adjustments)).toMatchObject([
      { adjustmentType: 'RETRACTION', orderId: callId },
    ]);
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    expect(rows.map((r) => [r.kind, r.status]).sort()).toEqual([
      ['conversion', 'retracted'],
      ['retraction', 'sent'],
    ]);
    expect(await countsOf(t, d.destination_id)).toMatchObject({
      retracted: 1,
      not_retractable: 0,
    });
  });
});
