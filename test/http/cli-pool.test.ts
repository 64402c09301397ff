import { describe, expect, it } from 'vitest';
import { useCliSuite } from '../helpers/cli.js';
import { createTenant, dni } from '../helpers/harness.js';

const suite = useCliSuite();

describe('campaign pool', () => {
  it('prints the pool health as fields and tables; --json is the API answer', async () => {
    const t = await createTenant(suite.h, { numbers: 2, ttl: 300 });
    suite.h.clock.set('2026-03-02T15:00:00Z');
    for (const v of ['a', 'b', 'c']) {
      expect((await dni(suite.h, t.key, { campaign_code: t.code, visitor_id: v })).statusCode).toBe(
        201,
      );
    }
    const human = await suite.admin(['campaign', 'pool', t.orgId, t.code, '--days', '2']);
    expect(human, human.err).toMatchObject({ code: 0, err: '' });
    expect(human.out).toMatch(/^campaign: +\S+$/m);
    expect(human.out).toMatch(/^sessions: +allocated 2, sticky 0, shared 1, overflow 0$/m);
    expect(human.out).toMatch(/^held_now: +2$/m);
    expect(human.out).toMatch(
      /^BUSIEST HOUR +NEW SESSIONS +PEAK HELD\n2026-03-02T15:00:00.000Z +3 +2$/m,
    );
    expect(human.out).toMatch(/^CallTrackingMetrics +1 +1 number per 20 daily visitors$/m);

    const r = await suite.admin([
      'campaign',
      'pool',
      t.orgId,
      t.code,
      '--json',
      '--target',
      '0.95',
    ]);
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out);
    expect(body).toMatchObject({
      numbers: 2,
      held_now: 2,
      window: { days: 30 },
      recommendation: { target: 0.95, basis: 'model' },
    });
    expect(await suite.quiet(['campaign', 'pool', t.orgId, t.code, '--target', '0.95'])).toBe(
      String(body.recommendation.size),
    );
  });

  it("another organization's campaign: the API's 404, exit 1", async () => {
    const t = await createTenant(suite.h);
    const other = await createTenant(suite.h);
    const r = await suite.admin(['campaign', 'pool', other.orgId, t.code]);
    expect(r).toMatchObject({ code: 1, out: '' });
    expect(r.err).toContain('error: campaign_not_found (404)');
  });
});
