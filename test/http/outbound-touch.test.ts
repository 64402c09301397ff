import { beforeEach, describe, expect, it } from 'vitest';
import { json, useHarness } from '../helpers/harness.js';
import {
  freshContact,
  grant,
  outboundTenant,
  revoke,
  touch,
  WEEKDAY_MORNING_ET,
} from '../helpers/outbound.js';

const h = useHarness();
beforeEach(() => h.clock.set(WEEKDAY_MORNING_ET));

const rows = (sql: string, params: unknown[]) =>
  h.store.query<Record<string, unknown>>(sql, params);
const call = (to: string, extra: Record<string, unknown> = {}) => ({
  to_e164: to,
  channel: 'call',
  consent_basis: 'pewc',
  ...extra,
});

describe('placed', () => {
  it('answers 202 queued with the one body shape, and stores the touch, its job and an audit line', async () => {
    const t = await outboundTenant(h, { config: { caller_id: '+12125550100' } });
    const res = await touch(h, t.key, t.code, call(t.contact, { cadence_step: 2 }));
    expect(res.statusCode).toBe(202);
    expect(res.headers['content-type']).toBe('application/json');
    const body = json(res);
    expect(Object.keys(body)).toEqual([
      'touch_id',
      'status',
      'channel',
      'reasons',
      'checks',
      'next_allowed_at',
      'variant',
      'cadence_step',
    ]);
    expect(body).toMatchObject({
      status: 'queued',
      channel: 'call',
      reasons: [],
      next_allowed_at: null,
      variant: null,
      cadence_step: 2,
    });
    expect(body.touch_id).toMatch(/^tch_[0-9a-f]{32}$/);
    expect(Object.keys(body.checks)).toEqual([
      'consent',
      'quiet_hours',
      'frequency',
      'suppression',
      'reassigned',
    ]);
    expect(body.checks.consent).toMatchObject({
      passed: true,
      asserted: 'pewc',
      tier_on_file: 'pewc',
    });
    expect(body.checks.quiet_hours.local[0]).toMatchObject({
      zone: 'America/New_York',
      local_time: '2026-03-02T10:00',
      inside: true,
    });
    const [row] = await rows('select * from outbound_touches where id = $1', [body.touch_id]);
    expect(row).toMatchObject({
      status: 'queued',
      placed: true,
      dispatch_status: 'pending',
      org_id: t.orgId,
    });
    const [job] = await rows('select * from dispatch_jobs where touch_id = $1', [body.touch_id]);
    expect(job).toMatchObject({ state: 'pending', attempts: 0 });
    expect(job?.payload).toMatchObject({ to: t.contact, from: '+12125550100', channel: 'call' });
    const audit = await rows(
      `select id, action, subject_type, subject_id, actor, detail, request_id, at
         from audit_log where org_id = $1 and action like $2`,
      [t.orgId, 'touch.%'],
    );
    expect(audit).toEqual([
      {
        id: expect.stringMatching(/^aud_[0-9a-f]{32}$/),
        action: 'touch.queued',
        subject_type: 'touch',
        subject_id: body.touch_id,
        actor: `key:${t.keyId}`,
        detail: expect.objectContaining({ channel: 'call', to_e164: t.contact, cadence_step: 2 }),
        request_id: res.headers['x-request-id'],
        at: expect.anything(),
      },
    ]);
    // The audit line's time is the touch's.
    expect(new Date(String(audit[0]?.at)).getTime()).toBe(
      new Date(String(row?.decided_at)).getTime(),
    );
  });

  it('takes the informational requirement (pec) from the campaign purpose', async () => {
    const t = await outboundTenant(h, { config: { purpose: 'informational' } });
    const pec = freshContact();
    await grant(h, t.orgId, pec, { tier: 'pec', captured_at: '2026-02-01T00:00:00Z' });
    const res = await touch(h, t.key, t.code, call(pec, { consent_basis: 'pec' }));
    expect(res.statusCode).toBe(202);
    expect(json(res).checks.consent).toMatchObject({ required: 'pec', purpose: 'informational' });
  });
});

describe('blocked: consent', () => {
  const codeOf = async (t: { key: string; code: string }, body: unknown) => {
    const res = await touch(h, t.key, t.code, body);
    expect(res.statusCode).toBe(200);
    const b = json(res);
    expect(b.status).toBe('blocked');
    return b;
  };

  it('consent_missing: nothing on file; stored as blocked, no job, audited', async () => {
    const t = await outboundTenant(h);
    const b = await codeOf(t, call(freshContact()));
    expect(b.reasons).toEqual([
      { code: 'consent_missing', message: 'No consent is on file for this number.' },
    ]);
    expect(b.next_allowed_at).toBeNull();
    const [row] = await rows('select placed, status from outbound_touches where id = $1', [
      b.touch_id,
    ]);
    expect(row).toEqual({ placed: false, status: 'blocked' });
    expect(
      await rows('select 1 from dispatch_jobs where touch_id = $1', [b.touch_id]),
    ).toHaveLength(0);
    expect(
      await rows('select 1 from audit_log where action = $1 and subject_id = $2', [
        'touch.blocked',
        b.touch_id,
      ]),
    ).toHaveLength(1);
  });

  it('consent_insufficient: asserted above the tier on file, or on file below the requirement', async () => {
    const t = await outboundTenant(h);
    const pec = freshContact();
    await grant(h, t.orgId, pec, { tier: 'pec', captured_at: '2026-02-01T00:00:00Z' });
    for (const basis of ['pewc', 'pec']) {
      const b = await codeOf(t, call(pec, { consent_basis: basis }));
      expect(b.reasons.map((r: { code: string }) => r.code)).toEqual(['consent_insufficient']);
      expect(b.checks.consent).toMatchObject({
        tier_on_file: 'pec',
        required: 'pewc',
        asserted: basis,
      });
    }
  });

  it('reads an ebr as expired 3 months after an inquiry, 18 after a transaction', async () => {
    const t = await outboundTenant(h);
    const inquiry = freshContact();
    const purchase = freshContact();
    await grant(h, t.orgId, inquiry, {
      tier: 'ebr',
      basis: 'inquiry',
      captured_at: '2025-11-01T00:00:00Z',
    });
    await grant(h, t.orgId, purchase, {
      tier: 'ebr',
      basis: 'transaction',
      captured_at: '2025-11-01T00:00:00Z',
    });
    const expired = await codeOf(t, call(inquiry, { consent_basis: 'ebr' }));
    expect(expired.checks.consent.tier_on_file).toBe('none');
    expect(expired.reasons[0].code).toBe('consent_insufficient');
    const live = await codeOf(t, call(purchase, { consent_basis: 'ebr' }));
    expect(live.checks.consent.tier_on_file).toBe('ebr');
    expect(live.reasons[0].code).toBe('consent_insufficient'); // marketing calls need pewc
  });

  it.each(['revoked', 'opt_out', 'internal_dnc'])(
    'consent_revoked after %s, the grant kept on file',
    async (kind) => {
      const t = await outboundTenant(h);
      await revoke(h, t.orgId, t.contact, { kind });
      const b = await codeOf(t, call(t.contact));
      expect(b.reasons.map((r: { code: string }) => r.code)).toEqual(['consent_revoked']);
      expect(b.checks.consent.revoked_at).toBe(new Date(h.clock.now()).toISOString());
    },
  );

  it('channel_not_allowed: the campaign allows other channels only', async () => {
    const t = await outboundTenant(h, { config: { allowed_channels: ['sms'] } });
    const b = await codeOf(t, call(t.contact));
    expect(b.reasons).toEqual([
      { code: 'channel_not_allowed', message: 'The campaign does not allow this channel.' },
    ]);
  });
});

describe('blocked: location and quiet hours', () => {
  it('location_unresolved: a number outside the NANP without lead_timezone', async () => {
    const t = await outboundTenant(h);
    await grant(h, t.orgId, '+447700900123');
    const res = await touch(h, t.key, t.code, call('+447700900123'));
    expect(json(res).reasons.map((r: { code: string }) => r.code)).toEqual(['location_unresolved']);
    expect(json(res).next_allowed_at).toBeNull();
    const ok = await touch(
      h,
      t.key,
      t.code,
      call('+447700900123', { lead_timezone: 'Europe/London' }),
    );
    expect(ok.statusCode).toBe(202);
  });

  it('quiet_hours after 21:00 local, next_allowed_at at 08:00 the next morning', async () => {
    const t = await outboundTenant(h);
    h.clock.set('2026-03-03T02:30:00Z'); // Monday 21:30 in New York
    const res = await touch(h, t.key, t.code, call(t.contact));
    expect(res.statusCode).toBe(200);
    const b = json(res);
    expect(b.reasons[0].code).toBe('quiet_hours');
    expect(b.reasons[0].message).toBe('Outside the permitted calling window in America/New_York.');
    expect(b.next_allowed_at).toBe('2026-03-03T13:00:00.000Z');
  });

  it('checks every zone of a split area code (850: Central and Eastern)', async () => {
    const t = await outboundTenant(h);
    const fl = freshContact(850);
    await grant(h, t.orgId, fl);
    h.clock.set('2026-03-02T13:30:00Z'); // 08:30 Eastern, 07:30 Central
    const b = json(await touch(h, t.key, t.code, call(fl)));
    expect(b.checks.quiet_hours.zones).toEqual(['America/Chicago', 'America/New_York']);
    expect(b.next_allowed_at).toBe('2026-03-02T14:00:00.000Z');
  });

  it('adds lead_timezone to the area-code zone', async () => {
    const t = await outboundTenant(h);
    h.clock.set('2026-03-02T15:00:00Z'); // 10:00 New York, 07:00 Los Angeles
    const b = json(
      await touch(h, t.key, t.code, call(t.contact, { lead_timezone: 'America/Los_Angeles' })),
    );
    expect(b.reasons[0].code).toBe('quiet_hours');
    expect(b.next_allowed_at).toBe('2026-03-02T16:00:00.000Z');
  });

  it('applies the state Sunday ban to marketing only (Alabama)', async () => {
    const marketing = await outboundTenant(h);
    const al = freshContact(205);
    await grant(h, marketing.orgId, al);
    h.clock.set('2026-03-01T16:00:00Z'); // Sunday 10:00 Central
    const b = json(await touch(h, marketing.key, marketing.code, call(al)));
    expect(b.reasons[0].code).toBe('quiet_hours');
    expect(b.next_allowed_at).toBe('2026-03-02T14:00:00.000Z');
    const info = await outboundTenant(h, { config: { purpose: 'informational' } });
    await grant(h, info.orgId, al);
    expect((await touch(h, info.key, info.code, call(al))).statusCode).toBe(202);
  });

  it('Rhode Island on 4 January 2028 (a year no curated holiday list covered) and Omaha (402, Central only)', async () => {
    const t = await outboundTenant(h);
    const [ri, omaha] = ['+14012345678', '+14022345678'];
    await grant(h, t.orgId, ri);
    await grant(h, t.orgId, omaha);
    h.clock.set('2028-01-04T16:00:30Z'); // Tuesday 11:00 in Rhode Island
    const pass = json(await touch(h, t.key, t.code, call(ri, { dry_run: true })));
    expect(pass.status).toBe('would_queue');
    expect(pass.checks.quiet_hours).toMatchObject({ passed: true, state: 'RI' });
    h.clock.set('2026-01-18T12:38:30Z'); // Sunday 06:38 in Omaha
    const blocked = json(await touch(h, t.key, t.code, call(omaha, { dry_run: true })));
    expect(blocked.reasons.map((r: { code: string }) => r.code)).toEqual(['quiet_hours']);
    expect(blocked.checks.quiet_hours.zones).toEqual(['America/Chicago']);
    expect(blocked.next_allowed_at).toBe('2026-01-18T14:00:00.000Z');
  });

  it('reports every failing check, in order, with next_allowed_at null while consent fails', async () => {
    const t = await outboundTenant(h);
    h.clock.set('2026-03-03T02:30:00Z');
    const b = json(await touch(h, t.key, t.code, call(freshContact())));
    expect(b.reasons.map((r: { code: string }) => r.code)).toEqual([
      'consent_missing',
      'quiet_hours',
    ]);
    expect(b.next_allowed_at).toBeNull();
  });
});
