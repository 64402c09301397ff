import { beforeEach, describe, expect, it } from 'vitest';
import { json, useHarness } from '../helpers/harness.js';
import {
  freshContact,
  grant,
  outboundTenant,
  touch,
  WEEKDAY_MORNING_ET,
} from '../helpers/outbound.js';

const h = useHarness();
beforeEach(() => h.clock.set(WEEKDAY_MORNING_ET));

const body = (to: string, extra: Record<string, unknown> = {}) => ({
  to_e164: to,
  channel: 'call',
  consent_basis: 'pewc',
  ...extra,
});
const codes = (b: { reasons: { code: string }[] }) => b.reasons.map((r) => r.code);
const count = async (sql: string, params: unknown[]) =>
  Number((await h.store.query<{ n: string }>(sql, params))[0]?.n);

describe('frequency', () => {
  it('places 3 per rolling 24 h, then frequency_capped until the oldest leaves the window', async () => {
    const t = await outboundTenant(h);
    for (let i = 0; i < 3; i++) {
      expect((await touch(h, t.key, t.code, body(t.contact))).statusCode).toBe(202);
      h.clock.advance(600);
    }
    const res = await touch(h, t.key, t.code, body(t.contact));
    expect(res.statusCode).toBe(200);
    const b = json(res);
    expect(codes(b)).toEqual(['frequency_capped']);
    expect(b.reasons[0].message).toBe('Contact frequency cap reached (3/3 touches in 24 h).');
    expect(b.next_allowed_at).toBe('2026-03-03T15:00:00.000Z');
    h.clock.set('2026-03-03T14:59:59Z');
    expect(codes(json(await touch(h, t.key, t.code, body(t.contact))))).toEqual([
      'frequency_capped',
    ]);
    h.clock.set('2026-03-03T15:00:00Z');
    expect((await touch(h, t.key, t.code, body(t.contact))).statusCode).toBe(202);
  });

  it('counts across campaigns and channels of the organization, per channel caps too', async () => {
    const t = await outboundTenant(h);
    for (const channel of ['sms', 'sms']) {
      expect((await touch(h, t.key, t.code, body(t.contact, { channel }))).statusCode).toBe(202);
    }
    const third = json(await touch(h, t.key, t.code, body(t.contact, { channel: 'sms' })));
    expect(codes(third)).toEqual(['frequency_capped']);
    expect(third.checks.frequency.caps).toContainEqual(
      expect.objectContaining({ scope: 'sms', max: 2, count: 2, passed: false }),
    );
    expect((await touch(h, t.key, t.code, body(t.contact))).statusCode).toBe(202);
  });

  it('lets a campaign lower the caps, never raise them', async () => {
    const low = await outboundTenant(h, { config: { frequency_caps: { per_24h: 1 } } });
    expect((await touch(h, low.key, low.code, body(low.contact))).statusCode).toBe(202);
    expect(codes(json(await touch(h, low.key, low.code, body(low.contact))))).toEqual([
      'frequency_capped',
    ]);
    const high = await outboundTenant(h, { config: { frequency_caps: { per_24h: 10 } } });
    for (let i = 0; i < 3; i++) await touch(h, high.key, high.code, body(high.contact));
    expect(codes(json(await touch(h, high.key, high.code, body(high.contact))))).toEqual([
      'frequency_capped',
    ]);
  });

  it('does not count blocked touches', async () => {
    const t = await outboundTenant(h);
    const later = freshContact();
    for (let i = 0; i < 4; i++) await touch(h, t.key, t.code, body(later));
    await grant(h, t.orgId, later);
    for (let i = 0; i < 3; i++) {
      expect((await touch(h, t.key, t.code, body(later))).statusCode).toBe(202);
    }
  });
});

describe('dry runs', () => {
  it('answers would_queue / would_block with 200, writes nothing and counts nothing', async () => {
    const t = await outboundTenant(h);
    for (let i = 0; i < 5; i++) {
      const res = await touch(h, t.key, t.code, body(t.contact, { dry_run: true }));
      expect(res.statusCode).toBe(200);
      expect(json(res)).toMatchObject({ touch_id: null, status: 'would_queue', reasons: [] });
    }
    const blocked = json(await touch(h, t.key, t.code, body(freshContact(), { dry_run: true })));
    expect(blocked).toMatchObject({ status: 'would_block', touch_id: null });
    expect(codes(blocked)).toEqual(['consent_missing']);
    expect(
      await count('select count(*) as n from outbound_touches where org_id = $1', [t.orgId]),
    ).toBe(0);
    expect(
      await count(
        "select count(*) as n from audit_log where org_id = $1 and action like 'touch.%'",
        [t.orgId],
      ),
    ).toBe(0);
    for (let i = 0; i < 3; i++) {
      expect((await touch(h, t.key, t.code, body(t.contact))).statusCode).toBe(202);
    }
    const capped = json(await touch(h, t.key, t.code, body(t.contact, { dry_run: true })));
    expect(capped.status).toBe('would_block');
    expect(codes(capped)).toEqual(['frequency_capped']);
    expect(capped.next_allowed_at).toBe('2026-03-03T15:00:00.000Z');
  });
});

describe('funnel_node variants', () => {
  const config = {
    caller_id: '+12125550100',
    templates: { default: { text: 'Hello {{name}}' }, promo: { text: 'Sale for {{name}}' } },
    variants: {
      vip: { allowed_channels: ['sms'], caller_id: '+12125550199' },
      late: { calling_window: { start: '09:00', end: '11:00' } },
      promo: { templates: { default: { text: 'Promo default' } } },
    },
  };

  it('merges the variant into the base: channels narrow, caller id and templates override', async () => {
    const t = await outboundTenant(h, { config });
    const blocked = json(await touch(h, t.key, t.code, body(t.contact, { funnel_node: 'vip' })));
    expect(blocked).toMatchObject({ status: 'blocked', variant: 'vip' });
    expect(codes(blocked)).toEqual(['channel_not_allowed']);
    const sms = json(
      await touch(
        h,
        t.key,
        t.code,
        body(t.contact, {
          funnel_node: 'vip',
          channel: 'sms',
          dynamic_variables: { name: 'Ann' },
        }),
      ),
    );
    expect(sms).toMatchObject({ status: 'queued', variant: 'vip' });
    const [job] = await h.store.query<{ payload: Record<string, unknown> }>(
      'select payload from dispatch_jobs where touch_id = $1',
      [sms.touch_id],
    );
    expect(job?.payload).toMatchObject({ from: '+12125550199', text: 'Hello Ann' });
    const promo = json(
      await touch(h, t.key, t.code, body(t.contact, { funnel_node: 'promo', channel: 'sms' })),
    );
    const [pjob] = await h.store.query<{ payload: Record<string, unknown> }>(
      'select payload from dispatch_jobs where touch_id = $1',
      [promo.touch_id],
    );
    expect(pjob?.payload).toMatchObject({ from: '+12125550100', text: 'Promo default' });
  });

  it("narrows the calling window to the variant's, with next_allowed_at at its next opening", async () => {
    const t = await outboundTenant(h, { config });
    h.clock.set('2026-03-02T16:30:00Z'); // 11:30 in New York
    const b = json(await touch(h, t.key, t.code, body(t.contact, { funnel_node: 'late' })));
    expect(codes(b)).toEqual(['quiet_hours']);
    expect(b.checks.quiet_hours.rules).toEqual(['federal', 'campaign']);
    expect(b.next_allowed_at).toBe('2026-03-03T14:00:00.000Z');
    expect((await touch(h, t.key, t.code, body(t.contact))).statusCode).toBe(202);
  });

  it('rejects a funnel_node that is not a variant with 422 at body.funnel_node, writing nothing', async () => {
    const t = await outboundTenant(h, { config });
    for (const node of ['nope', 'toString', '__proto__']) {
      const res = await touch(h, t.key, t.code, body(t.contact, { funnel_node: node }));
      expect(res.statusCode).toBe(422);
      expect(json(res)).toEqual({
        detail: [
          {
            type: 'value_error',
            loc: ['body', 'funnel_node'],
            msg: 'Value error, no variant of that name in the campaign configuration',
            input: node,
            ctx: { error: {} },
          },
        ],
      });
    }
    expect(
      await count('select count(*) as n from outbound_touches where org_id = $1', [t.orgId]),
    ).toBe(0);
  });
});
