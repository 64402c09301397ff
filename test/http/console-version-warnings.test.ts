import { describe, expect, it } from 'vitest';
import { makeUser, signIn, useConsole } from '../helpers/console.js';
import { createDestination, useUploads } from '../helpers/conversions.js';
import { createTenant, useHarness } from '../helpers/harness.js';

/**
 * The console's overview names each of the organization's destinations whose ad-platform API
 * version is retired or retires within 60 days, with the same words as the admin API's `api`.
 */
const h = useHarness();
useUploads(h);
const c = useConsole(h);

const card = (body: string) =>
  /<section class="card version-warnings"[^>]*>([\s\S]*?)<\/section>/.exec(body)?.[1];

describe('API version warnings on the overview', () => {
  it('appear within 60 days of the retirement, for this organization’s destinations only', async () => {
    h.clock.set('2026-10-01T12:00:00Z');
    const t = await createTenant(h);
    const other = await createTenant(h);
    const d = await createDestination(h, t.orgId, 'meta', {
      name: 'Meta on v21',
      settings: { pixel_id: '1122334455', api_version: 'v21.0' },
    });
    await createDestination(h, t.orgId, 'meta', { name: 'Meta current' });
    await createDestination(h, other.orgId, 'meta', {
      name: 'Another org on v21',
      settings: { pixel_id: '1122334455', api_version: 'v21.0' },
    });
    const email = (await makeUser(h, 'viewer', t.orgId)).email;

    let viewer = await signIn(c.app, email);
    let page = await viewer.get(`/orgs/${t.orgId}/overview`);
    expect(page.statusCode).toBe(200);
    expect(card(page.body)).toBeUndefined();

    h.clock.set('2026-11-28T12:00:00Z');
    viewer = await signIn(c.app, email);
    page = await viewer.get(`/orgs/${t.orgId}/overview`);
    const shown = card(page.body);
    expect(shown).toContain('<strong>Meta on v21</strong> (meta)');
    expect(shown).toContain(
      'meta_graph v21.0 is retired on 2027-01-21 (in 54 days): set settings.api_version to v24.0',
    );
    expect(shown).not.toContain('Meta current');
    expect(shown).not.toContain('Another org');
    expect(d.destination_id).toMatch(/^cdst_/);
  });
});
