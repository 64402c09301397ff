import { describe, expect, it } from 'vitest';
import { useCliSuite } from '../helpers/cli.js';
import { createDestination, useUploads } from '../helpers/conversions.js';
import { createTenant } from '../helpers/harness.js';

/** `destination list` shows each destination's API and warns when its version retires soon. */
const suite = useCliSuite();
useUploads(suite.h);

describe('destination list', () => {
  it('has an API column and a warning line per destination near its retirement', async () => {
    const h = suite.h;
    const t = await createTenant(h);
    const old = await createDestination(h, t.orgId, 'meta', {
      settings: { pixel_id: '1122334455', api_version: 'v21.0' },
    });
    const current = await createDestination(h, t.orgId, 'google_ads');

    h.clock.set('2026-10-01T12:00:00Z');
    let list = await suite.admin(['destination', 'list', t.orgId]);
    expect(list.code, list.err).toBe(0);
    expect(list.out).toMatch(new RegExp(`${old.destination_id} +meta +meta_graph v21\\.0 `));
    expect(list.out).toMatch(
      new RegExp(`${current.destination_id} +google_ads +google_ads_api v25 `),
    );
    expect(list.out).not.toContain('warning:');

    h.clock.set('2027-02-01T12:00:00Z');
    list = await suite.admin(['destination', 'list', t.orgId]);
    const warnings = list.out.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toEqual([
      `warning: ${old.destination_id}: meta_graph v21.0 was retired on 2027-01-21: uploads fail until settings.api_version is v24.0`,
    ]);
  });
});
