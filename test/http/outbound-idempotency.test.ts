import { beforeEach, describe, expect, it } from 'vitest';
import { canonicalJson, sha256Hex } from '../../src/domain/consents/canonical-json.js';
import { reserveKey } from '../../src/store/repos/idempotency.js';
import { lockContact, recordDecision } from '../../src/store/repos/touches.js';
import { adminCall, json, useHarness } from '../helpers/harness.js';
import { outboundTenant, touch, WEEKDAY_MORNING_ET } from '../helpers/outbound.js';
import { itConcurrently } from '../helpers/store.js';

const h = useHarness();
beforeEach(() => h.clock.set(WEEKDAY_MORNING_ET));

const body = (to: string, key: string, extra: Record<string, unknown> = {}) => ({
  to_e164: to,
  channel: 'call',
  consent_basis: 'pewc',
  idempotency_key: key,
  ...extra,
});
const touches = async (orgId: string) =>
  Number(
    (
      await h.store.query<{ n: string }>(
        'select count(*) as n from outbound_touches where org_id = $1',
        [orgId],
      )
    )[0]?.n,
  );

describe('replay', () => {
  it('returns the first status and body with Idempotent-Replayed: true, placing nothing', async () => {
    const t = await outboundTenant(h);
    const first = await touch(h, t.key, t.code, body(t.contact, 'k-1'));
    expect(first.statusCode).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    h.clock.advance(3600);
    const again = await touch(h, t.key, t.code, body(t.contact, 'k-1'));
    expect(again.statusCode).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await touches(t.orgId)).toBe(1);
  });

  it('replays a blocked answer too (200)', async () => {
    const t = await outboundTenant(h, { config: { allowed_channels: ['sms'] } });
    const first = await touch(h, t.key, t.code, body(t.contact, 'k-blocked'));
    expect(json(first).status).toBe('blocked');
    const again = await touch(h, t.key, t.code, body(t.contact, 'k-blocked'));
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(await touches(t.orgId)).toBe(1);
  });

  it('treats key order and defaults as the same body (canonical JSON of the validated body)', async () => {
    const t = await outboundTenant(h);
    const first = await touch(h, t.key, t.code, body(t.contact, 'k-order'));
    const reordered = await touch(h, t.key, t.code, {
      idempotency_key: 'k-order',
      dry_run: false,
      consent_basis: 'pewc',
      channel: 'call',
      to_e164: t.contact,
    });
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(reordered.body).toBe(first.body);
  });

  it('keeps a key 24 h, then decides afresh', async () => {
    const t = await outboundTenant(h);
    const first = json(await touch(h, t.key, t.code, body(t.contact, 'k-day')));
    h.clock.advance(24 * 3600 - 1);
    expect(json(await touch(h, t.key, t.code, body(t.contact, 'k-day'))).touch_id).toBe(
      first.touch_id,
    );
    h.clock.advance(1);
    const fresh = await touch(h, t.key, t.code, body(t.contact, 'k-day'));
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(json(fresh).touch_id).not.toBe(first.touch_id);
  });

  it('scopes keys per organization and campaign', async () => {
    const t = await outboundTenant(h);
    await adminCall(h, 'POST', `/admin/orgs/${t.orgId}/campaigns`, {
      code: 'zz9',
      name: 'Second',
      numbers: ['+12125550999'],
    });
    const a = json(await touch(h, t.key, t.code, body(t.contact, 'shared')));
    const b = await touch(h, t.key, 'zz9', body(t.contact, 'shared'));
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(json(b).touch_id).not.toBe(a.touch_id);
    const other = await outboundTenant(h);
    const c = await touch(h, other.key, other.code, body(other.contact, 'shared'));
    expect(c.statusCode).toBe(202);
    expect(c.headers['idempotent-replayed']).toBeUndefined();
  });

  it('keeps no record for dry runs', async () => {
    const t = await outboundTenant(h);
    await touch(h, t.key, t.code, body(t.contact, 'k-dry', { dry_run: true }));
    const real = await touch(h, t.key, t.code, body(t.contact, 'k-dry'));
    expect(real.statusCode).toBe(202);
    expect(real.headers['idempotent-replayed']).toBeUndefined();
  });
});

describe('conflicts', () => {
  it('answers a different body under a used key with 422 at body.idempotency_key', async () => {
    const t = await outboundTenant(h);
    await touch(h, t.key, t.code, body(t.contact, 'k-diff'));
    const res = await touch(h, t.key, t.code, body(t.contact, 'k-diff', { cadence_step: 1 }));
    expect(res.statusCode).toBe(422);
    expect(json(res)).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'idempotency_key'],
          msg: 'Value error, this idempotency_key was used with a different request body',
          input: 'k-diff',
          ctx: { error: {} },
        },
      ],
    });
    expect(await touches(t.orgId)).toBe(1);
  });

  it('answers 409 while the first request holds the key, and takes over a stale one', async () => {
    const t = await outboundTenant(h);
    const campaign = await adminCall(h, 'GET', `/admin/orgs/${t.orgId}/campaigns/${t.code}`);
    const scope = { orgId: t.orgId, campaignId: campaign.campaign_id, key: 'k-flight' };
    const validated = { ...body(t.contact, 'k-flight'), dry_run: false };
    // The first request has claimed the key and is still deciding.
    const r = await reserveKey(h.store.db, scope, {
      hash: sha256Hex(canonicalJson(validated)),
      owner: 'first-request',
      nowMs: h.clock.now(),
      ttlMs: 24 * 3600_000,
      staleMs: 60_000,
    });
    expect(r.kind).toBe('reserved');
    const dup = await touch(h, t.key, t.code, body(t.contact, 'k-flight'));
    expect(dup.statusCode).toBe(409);
    expect(dup.body).toBe('{"detail":"idempotency_key_in_use"}');
    const diff = await touch(h, t.key, t.code, body(t.contact, 'k-flight', { cadence_step: 4 }));
    expect(diff.statusCode).toBe(422);
    expect(await touches(t.orgId)).toBe(0);
    // A minute later the first request is presumed dead (it committed nothing).
    h.clock.advance(61);
    const takeover = await touch(h, t.key, t.code, body(t.contact, 'k-flight'));
    expect(takeover.statusCode).toBe(202);
    // Should the first request still finish, it cannot complete the key, and rolls back.
    const late = await h.store.db
      .transaction(async (tx) => {
        const at = new Date(h.clock.now());
        const done = await recordDecision(tx, {
          touch: {
            id: 'tch_late',
            orgId: t.orgId,
            campaignId: campaign.campaign_id,
            toE164: t.contact,
            channel: 'call',
            status: 'queued',
            placed: true,
            consentBasis: 'pewc',
            reasons: [],
            checks: {},
            decidedAt: at,
            actor: 'test',
          },
          jobPayload: {},
          audit: {
            orgId: t.orgId,
            actor: 'test',
            action: 'touch.queued',
            subjectType: 'touch',
            subjectId: 'tch_late',
            at,
          },
          idempotency: { scope, owner: 'first-request', statusCode: 202, response: '{}' },
        });
        if (!done) throw new Error('rolled back');
        return done;
      })
      .catch((err: Error) => err.message);
    expect(late).toBe('rolled back');
    expect(
      await h.store.query("select 1 from outbound_touches where id = 'tch_late'", []),
    ).toHaveLength(0);
    const replay = await touch(h, t.key, t.code, body(t.contact, 'k-flight'));
    expect(replay.body).toBe(takeover.body);
  });

  itConcurrently(
    'answers 409 to a true concurrent duplicate (the first blocks on the contact lock)',
    async () => {
      const t = await outboundTenant(h);
      const other = await h.store.reopen();
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => {
        locked = r;
      });
      const holder = other.db.transaction(async (tx) => {
        await lockContact(tx, t.orgId, t.contact);
        locked();
        await held;
      });
      await isLocked;
      const first = touch(h, t.key, t.code, body(t.contact, 'k-race'));
      for (let i = 0; i < 200; i++) {
        const rows = await h.store.query(
          "select 1 from outbound_idempotency where key = 'k-race'",
          [],
        );
        if (rows.length > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      const dup = await touch(h, t.key, t.code, body(t.contact, 'k-race'));
      expect(dup.statusCode).toBe(409);
      release();
      await holder;
      const done = await first;
      expect(done.statusCode).toBe(202);
      const replay = await touch(h, t.key, t.code, body(t.contact, 'k-race'));
      expect(replay.headers['idempotent-replayed']).toBe('true');
      expect(replay.body).toBe(done.body);
      await other.close();
    },
  );
});
