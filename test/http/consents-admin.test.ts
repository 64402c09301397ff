import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminCall, type Harness, json, useHarness } from '../helpers/harness.js';
import {
  adminInject,
  freshContact,
  grant,
  outboundTenant,
  revoke,
  touch,
  WEEKDAY_MORNING_ET,
} from '../helpers/outbound.js';

const h: Harness = useHarness();
let orgId: string;
beforeAll(async () => {
  h.clock.set(WEEKDAY_MORNING_ET);
  orgId = (await adminCall(h, 'POST', '/admin/orgs', { name: 'Consents' })).org_id;
});
beforeEach(() => h.clock.set(WEEKDAY_MORNING_ET));

const url = (e164: string, suffix = '') =>
  `/admin/orgs/${orgId}/consents/${encodeURIComponent(e164)}${suffix}`;

describe('PUT consent', () => {
  it('records a grant with its evidence and answers the standing and history', async () => {
    const n = freshContact();
    const view = await grant(h, orgId, n, {
      tier: 'pewc',
      source: 'web-form',
      captured_at: '2026-02-01T12:00:00Z',
      evidence: { certificate_id: 'cert-1', ip: '203.0.113.9', disclosure_version: 'v3' },
    });
    expect(view).toMatchObject({
      org_id: orgId,
      e164: n,
      status: 'active',
      tier_on_file: 'pewc',
    });
    expect(view.history).toEqual([
      {
        id: expect.stringMatching(/^cns_[0-9a-f]{32}$/),
        kind: 'grant',
        tier: 'pewc',
        basis: null,
        source: 'web-form',
        captured_at: '2026-02-01T12:00:00.000Z',
        expires_at: null,
        evidence: { certificate_id: 'cert-1', ip: '203.0.113.9', disclosure_version: 'v3' },
        reason: null,
        actor: 'admin',
        recorded_at: '2026-03-02T15:00:00.000Z',
      },
    ]);
    const audit = await adminCall(h, 'GET', `/admin/orgs/${orgId}/audit?action=consent.granted`);
    expect(audit.items[0]).toMatchObject({ subject_type: 'consent', subject_id: n });
  });

  it('accepts the number URL-encoded or raw, and answers 404 for an unknown organization', async () => {
    const n = freshContact();
    const raw = await adminInject(h, 'PUT', `/admin/orgs/${orgId}/consents/${n}`, { tier: 'pec' });
    expect(raw.statusCode).toBe(200);
    expect(json(raw).e164).toBe(n);
    const missing = await adminInject(h, 'PUT', `/admin/orgs/org_nope/consents/${n}`, {
      tier: 'pec',
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toBe('{"detail":"org_not_found"}');
  });

  it('needs basis for ebr (and only there), a past captured_at and a valid number', async () => {
    const n = freshContact();
    const res = await adminInject(h, 'PUT', url(n), {
      tier: 'ebr',
      captured_at: '2026-04-01T00:00:00Z',
    });
    expect(res.statusCode).toBe(422);
    expect(json(res).detail.map((e: { loc: unknown; msg: string }) => [e.loc, e.msg])).toEqual([
      [['body', 'basis'], 'Value error, an ebr grant needs basis transaction or inquiry'],
      [['body', 'captured_at'], 'Value error, must not be in the future'],
    ]);
    const pewcBasis = await adminInject(h, 'PUT', url(n), { tier: 'pewc', basis: 'inquiry' });
    expect(json(pewcBasis).detail[0].msg).toBe('Value error, basis applies to ebr grants only');
    const bad = await adminInject(h, 'PUT', url('12345'), { tier: 'none', extra: 1 });
    expect(json(bad).detail.map((e: { loc: unknown }) => e.loc)).toEqual([
      ['path', 'e164'],
      ['body', 'tier'],
      ['body', 'extra'],
    ]);
    const view = await adminCall(h, 'GET', url(n));
    expect(view).toMatchObject({ status: 'none', tier_on_file: 'none', history: [] });
  });

  it('answers 401 without the admin token', async () => {
    const res = await h.admin.inject({ method: 'GET', url: url(freshContact()) });
    expect(res.statusCode).toBe(401);
  });
});

describe('revoke', () => {
  it('adds a revocation and keeps the grant in the history; a later grant stands', async () => {
    const n = freshContact();
    await grant(h, orgId, n);
    h.clock.advance(60);
    const view = await revoke(h, orgId, n, { kind: 'opt_out', reason: 'STOP reply' });
    expect(view.status).toBe('revoked');
    expect(view.history.map((e: { kind: string }) => e.kind)).toEqual(['opt_out', 'grant']);
    expect(view.history[0]).toMatchObject({
      reason: 'STOP reply',
      captured_at: '2026-03-02T15:01:00.000Z',
    });
    h.clock.advance(60);
    const again = await grant(h, orgId, n, { tier: 'pewc', captured_at: '2026-03-02T15:02:00Z' });
    expect(again).toMatchObject({ status: 'active', tier_on_file: 'pewc' });
    expect(again.history).toHaveLength(3);
  });

  it('keeps a do-not-call entry blocking whatever is granted later', async () => {
    const n = freshContact();
    await revoke(h, orgId, n, { kind: 'internal_dnc' });
    h.clock.advance(60);
    const view = await grant(h, orgId, n, { tier: 'pewc', captured_at: '2026-03-02T15:01:00Z' });
    expect(view.status).toBe('do_not_call');
  });

  it('takes an empty body (kind revoked) and rejects unknown kinds', async () => {
    const n = freshContact();
    const res = await h.admin.inject({
      method: 'POST',
      url: url(n, '/revoke'),
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    expect(json(res).history[0].kind).toBe('revoked');
    const bad = await adminInject(h, 'POST', url(n, '/revoke'), { kind: 'maybe' });
    expect(bad.statusCode).toBe(422);
  });

  it('refuses to rewrite history, even from SQL', async () => {
    const n = freshContact();
    await grant(h, orgId, n);
    await expect(
      h.store.query('update consent_events set tier = $1 where e164 = $2', ['ebr', n]),
    ).rejects.toThrow(/append-only/);
    await expect(h.store.query('delete from consent_events where e164 = $1', [n])).rejects.toThrow(
      /append-only/,
    );
  });
});

describe('the touch sees consent changes at once', () => {
  it('blocks after a revocation and passes again after a new grant', async () => {
    const t = await outboundTenant(h);
    const b = { to_e164: t.contact, channel: 'sms', consent_basis: 'pewc' };
    expect((await touch(h, t.key, t.code, b)).statusCode).toBe(202);
    h.clock.advance(60);
    await revoke(h, t.orgId, t.contact, { kind: 'opt_out' });
    expect(json(await touch(h, t.key, t.code, b)).reasons[0].code).toBe('consent_revoked');
    h.clock.advance(60);
    await grant(h, t.orgId, t.contact, {
      tier: 'pewc',
      captured_at: new Date(h.clock.now()).toISOString(),
    });
    expect((await touch(h, t.key, t.code, b)).statusCode).toBe(202);
  });
});
