import { afterEach, describe, expect, it } from 'vitest';
import {
  attemptsOf,
  conversionSteps,
  createDestination,
  destinationCall,
  GOOGLE_NO_DEV_TOKEN,
  uploadsOf,
  useUploads,
} from '../helpers/conversions.js';
import { CREDS, type Seen } from '../helpers/fake-ad-platforms.js';
import { createTenant, json, type Tenant, useHarness } from '../helpers/harness.js';
import { dataManagerType, protoProblems } from '../helpers/vendor-definitions.js';

/**
 * Data Manager answers `events:ingest` with a request id and processes the events afterwards;
 * the upload stays pending (`awaiting_confirmation`) until the worker's check of
 * `requestStatus:retrieve` (RetrieveRequestStatusResponse, which the fake's every answer
 * conforms to) ends it sent or failed with Google's reason (docs/conversions.md,
 * "Confirmation").
 */
const h = useHarness({ privateDatabase: 'the upload worker claims every organization’s uploads' });
const u = useUploads(h);
afterEach(() => {
  u.fake.script = () => null;
  u.fake.dataManagerProcessingMs = 0;
});

const GOOGLE = { customer_id: '123-456-7890', conversion_action: '987654321' };
const { call, verdict, drain } = conversionSteps(h, u);

async function later(seconds: number) {
  h.clock.advance(seconds);
  await drain();
}

const confirmS = () => u.worker.options.confirmAfterMs / 1000;
const path = (re: RegExp) => (from: number) =>
  u.fake.requests.slice(from).filter((s: Seen) => re.test(s.path));
const ingests = path(/\/datamanager\/v1\/events:ingest$/);
const checks = path(/\/datamanager\/v1\/requestStatus:retrieve$/);

async function destination(t: Tenant, secrets: Record<string, string> = GOOGLE_NO_DEV_TOKEN) {
  return createDestination(h, t.orgId, 'google_ads', { settings: GOOGLE, secrets });
}

describe('an accepted request is pending until Google reports it', () => {
  it('PROCESSING, then SUCCESS: pending awaiting_confirmation, then sent', async () => {
    h.clock.set('2026-11-21T10:00:00Z');
    const t = await createTenant(h);
    const d = await destination(t);
    u.fake.dataManagerProcessingMs = 10 * 60_000;
    const callId = await call(t, 'EAIaIQ-proc');
    await verdict(t, callId, 'success');
    const from = u.fake.requests.length;
    await drain();
    expect(ingests(from)).toHaveLength(1);
    const [accepted] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(accepted).toMatchObject({ status: 'pending', reason_code: 'awaiting_confirmation' });
    // Not checked before confirmAfterMs.
    await later(confirmS() - 1);
    expect(checks(from)).toEqual([]);
    await later(1);
    expect(checks(from)).toHaveLength(1);
    const [processing] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(processing).toMatchObject({
      status: 'pending',
      reason_code: 'awaiting_confirmation',
      attempts: 2,
    });
    expect(processing.reason).toContain("Google's processing report: PROCESSING");
    await later(10 * 60);
    const [row] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(row).toMatchObject({ status: 'sent', reason_code: null });
    // Sent once: checks never send the events again.
    expect(ingests(from)).toHaveLength(1);
    const counts = json(
      await destinationCall(
        h,
        'GET',
        `/admin/orgs/${t.orgId}/conversion-destinations/${d.destination_id}`,
      ),
    ).uploads;
    expect(counts).toMatchObject({ pending: 0, sent: 1, failed: 0 });
  });

  it('FAILED: failed with Google’s processing reason, and the attempts say so', async () => {
    h.clock.set('2026-11-21T11:00:00Z');
    const t = await createTenant(h);
    const d = await destination(t);
    const callId = await call(t, 'TOO_OLD-1');
    await verdict(t, callId, 'success');
    await drain();
    expect((await uploadsOf(h, t.orgId, d.destination_id))[0]).toMatchObject({
      status: 'pending',
      reason_code: 'awaiting_confirmation',
    });
    await later(confirmS());
    const [row] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(row).toMatchObject({ status: 'failed', reason_code: 'too_old' });
    expect(row.reason).toContain('FAILED, PROCESSING_ERROR_REASON_EVENT_TOO_OLD ×1');
    const attempts = await attemptsOf(h, t.orgId, d.destination_id);
    expect(attempts.map((a: any) => [a.attempt, a.outcome]).sort()).toEqual([
      [1, 'retry'],
      [2, 'failed'],
    ]);
  });

  it('a replay of a conversion Google holds: reported a duplicate transaction, so sent', async () => {
    h.clock.set('2026-11-21T12:00:00Z');
    const t = await createTenant(h);
    const d = await destination(t);
    const callId = await call(t, 'EAIaIQ-dup');
    await verdict(t, callId, 'success');
    await drain();
    await later(confirmS());
    const held = u.fake.dataManager.length;
    const res = await destinationCall(
      h,
      'POST',
      `/admin/orgs/${t.orgId}/conversion-destinations/${d.destination_id}/replay`,
      { call_id: callId },
    );
    expect(res.statusCode).toBe(202);
    await drain();
    await later(confirmS());
    const [row] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(row).toMatchObject({ status: 'sent' });
    expect(row.reason).toBe(
      'Google already held it (PROCESSING_ERROR_REASON_DUPLICATE_TRANSACTION_ID)',
    );
    expect(u.fake.dataManager.length).toBe(held);
  });

  it('PARTIAL_SUCCESS names no event: each is sent again alone, and each ends by its own report', async () => {
    h.clock.set('2026-11-21T13:00:00Z');
    const t = await createTenant(h);
    const d = await destination(t);
    const good = await call(t, 'EAIaIQ-part');
    const old = await call(t, 'TOO_OLD-part');
    await verdict(t, good, 'success');
    await verdict(t, old, 'success');
    const from = u.fake.requests.length;
    await drain();
    await later(confirmS());
    await later(confirmS());
    // One request with both, then each alone (in either order).
    const [both, ...alone] = ingests(from).map((r) =>
      r.body.events.map((e: any) => e.transactionId),
    );
    expect(both!.sort()).toEqual([good, old].sort());
    expect(alone.map((x) => x.join()).sort()).toEqual([good, old].sort());
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    const byCall = Object.fromEntries(rows.map((r: any) => [r.call_id, r]));
    expect(byCall[good]).toMatchObject({ status: 'sent' });
    expect(byCall[good].reason).toContain('DUPLICATE_TRANSACTION_ID');
    expect(byCall[old]).toMatchObject({ status: 'failed', reason_code: 'too_old' });
    // Every check named a request the fake had accepted and got an answer of the vendor's shape.
    for (const c of checks(from)) {
      expect(
        protoProblems(dataManagerType('RetrieveRequestStatusRequest'), {
          requestId: c.query.get('requestId'),
        }),
      ).toEqual([]);
    }
  });
});

describe('a rejected report while Google has not reported', () => {
  it('with a developer token: the retraction waits for the report, then retracts', async () => {
    h.clock.set('2026-11-21T14:00:00Z');
    const t = await createTenant(h);
    const d = await destination(t, CREDS.google);
    const callId = await call(t, 'EAIaIQ-wait');
    await verdict(t, callId, 'success');
    await drain();
    const adjustments = u.fake.googleAdjustments.length;
    await verdict(t, callId, 'rejected');
    await drain();
    expect(u.fake.googleAdjustments.length).toBe(adjustments);
    await later(confirmS());
    expect(u.fake.googleAdjustments.slice(adjustments)).toMatchObject([
      { adjustmentType: 'RETRACTION', orderId: callId },
    ]);
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    expect(rows.map((r: any) => [r.kind, r.status]).sort()).toEqual([
      ['conversion', 'retracted'],
      ['retraction', 'sent'],
    ]);
  });

  it('Google then reports it failed: nothing to retract, nothing sent', async () => {
    h.clock.set('2026-11-21T15:00:00Z');
    const t = await createTenant(h);
    const d = await destination(t, CREDS.google);
    const callId = await call(t, 'TOO_OLD-wait');
    await verdict(t, callId, 'success');
    await drain();
    await verdict(t, callId, 'rejected');
    const from = u.fake.requests.length;
    await later(confirmS());
    expect(u.fake.requests.slice(from).filter((s) => s.path.startsWith('/google/'))).toEqual([]);
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    expect(rows.map((r: any) => [r.kind, r.status, r.reason_code]).sort()).toEqual([
      ['conversion', 'failed', 'too_old'],
      ['retraction', 'failed', 'conversion_not_sent'],
    ]);
  });

  it('without a developer token: still checked to Google’s report; sent, so not_retractable', async () => {
    h.clock.set('2026-11-21T16:00:00Z');
    const t = await createTenant(h);
    const d = await destination(t);
    u.fake.dataManagerProcessingMs = 10 * 60_000;
    const callId = await call(t, 'EAIaIQ-nodev');
    await verdict(t, callId, 'success');
    const from = u.fake.requests.length;
    await drain();
    await verdict(t, callId, 'rejected');
    await drain();
    // Google has not reported yet: the row still awaits its report, and is checked.
    const [waiting] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(waiting).toMatchObject({ status: 'pending', reason_code: 'awaiting_confirmation' });
    await later(confirmS());
    expect(checks(from)).toHaveLength(1);
    expect((await uploadsOf(h, t.orgId, d.destination_id))[0]).toMatchObject({
      status: 'pending',
      reason_code: 'awaiting_confirmation',
    });
    await later(10 * 60);
    expect(checks(from)).toHaveLength(2);
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'conversion',
      status: 'not_retractable',
      reason_code: 'not_retractable',
    });
    expect(rows[0].reason).toMatch(/secrets\.developer_token/);
    const attempts = await attemptsOf(h, t.orgId, d.destination_id);
    expect(attempts.map((a: any) => [a.attempt, a.outcome]).sort()).toEqual([
      [1, 'retry'],
      [2, 'retry'],
      [3, 'sent'],
    ]);
    // Sent once, never retracted: nothing but the one ingest and its checks.
    expect(ingests(from)).toHaveLength(1);
    expect(u.fake.requests.slice(from).filter((s) => s.path.startsWith('/google/'))).toEqual([]);
    const counts = json(
      await destinationCall(
        h,
        'GET',
        `/admin/orgs/${t.orgId}/conversion-destinations/${d.destination_id}`,
      ),
    ).uploads;
    expect(counts).toMatchObject({ pending: 0, sent: 0, failed: 0, not_retractable: 1 });
  });

  it('without a developer token, Google then reports it failed: failed with Google’s reason', async () => {
    h.clock.set('2026-11-21T17:00:00Z');
    const t = await createTenant(h);
    const d = await destination(t);
    const callId = await call(t, 'TOO_OLD-nodev');
    await verdict(t, callId, 'success');
    await drain();
    await verdict(t, callId, 'rejected');
    await drain();
    const from = u.fake.requests.length;
    await later(confirmS());
    expect(checks(from)).toHaveLength(1);
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'conversion', status: 'failed', reason_code: 'too_old' });
    expect(rows[0].reason).toContain('PROCESSING_ERROR_REASON_EVENT_TOO_OLD');
  });
  it('without a developer token, Google reports the request in part: not sent again, not_retractable', async () => {
    h.clock.set('2026-11-21T18:00:00Z');
    const t = await createTenant(h);
    const d = await destination(t);
    const good = await call(t, 'EAIaIQ-part-nodev');
    const old = await call(t, 'TOO_OLD-part-nodev');
    await verdict(t, good, 'success');
    await verdict(t, old, 'success');
    const from = u.fake.requests.length;
    await drain();
    await verdict(t, good, 'rejected');
    await verdict(t, old, 'rejected');
    await drain();
    await later(confirmS());
    await later(confirmS());
    // Finding out which event Google kept would mean sending a rejected conversion again to a
    // destination that cannot retract it: neither is sent again, and both read not_retractable.
    expect(ingests(from)).toHaveLength(1);
    expect(checks(from)).toHaveLength(1);
    const rows = await uploadsOf(h, t.orgId, d.destination_id);
    expect(rows.map((r: any) => [r.call_id, r.status, r.reason_code]).sort()).toEqual(
      [
        [good, 'not_retractable', 'not_retractable'],
        [old, 'not_retractable', 'not_retractable'],
      ].sort(),
    );
  });
});

describe('a request Google takes long to process: checked for a time, not a number of times', () => {
  const HOUR_S = 3_600;
  const DAY_S = 24 * HOUR_S;

  it('still PROCESSING at 20 hours: still checked, then sent when Google reports', async () => {
    h.clock.set('2026-11-22T10:00:00Z');
    const t = await createTenant(h);
    const d = await destination(t);
    u.fake.dataManagerProcessingMs = 21 * HOUR_S * 1000;
    const callId = await call(t, 'EAIaIQ-slow');
    await verdict(t, callId, 'success');
    const from = u.fake.requests.length;
    await drain();
    // The backoff is capped at an hour, so an hour's step always finds the row due.
    for (let hour = 1; hour <= 20; hour++) await later(HOUR_S);
    const [at20h] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(at20h).toMatchObject({ status: 'pending', reason_code: 'awaiting_confirmation' });
    expect(at20h.attempts).toBeGreaterThan(20);
    const checked = checks(from).length;
    await later(HOUR_S);
    expect(checks(from).length).toBe(checked + 1);
    await later(HOUR_S);
    const [row] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(row).toMatchObject({ status: 'sent', reason_code: null });
    expect(ingests(from)).toHaveLength(1);
  });

  it('gives up only when Google still says PROCESSING past 7 days after accepting it', async () => {
    h.clock.set('2026-11-23T10:00:00Z');
    const t = await createTenant(h);
    const d = await destination(t);
    u.fake.dataManagerProcessingMs = 30 * DAY_S * 1000;
    const callId = await call(t, 'EAIaIQ-stuck');
    await verdict(t, callId, 'success');
    const from = u.fake.requests.length;
    await drain();
    // Checked first just before the deadline (a worker that was down, say): still awaited.
    await later(7 * DAY_S - 120);
    expect(checks(from)).toHaveLength(1);
    expect((await uploadsOf(h, t.orgId, d.destination_id))[0]).toMatchObject({
      status: 'pending',
      reason_code: 'awaiting_confirmation',
      attempts: 2,
    });
    // The next check is past the deadline: Google still says PROCESSING, so it gives up.
    await later(HOUR_S);
    expect(checks(from)).toHaveLength(2);
    const [row] = await uploadsOf(h, t.orgId, d.destination_id);
    expect(row).toMatchObject({ status: 'failed', reason_code: 'gave_up', attempts: 3 });
    expect(row.reason).toContain("Google's processing report: PROCESSING");
    expect(row.reason).toContain('7 days');
    expect(ingests(from)).toHaveLength(1);
  });
});
