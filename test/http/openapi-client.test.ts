import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientTypes } from '../../packages/client/scripts/client-types.js';
import type { components, paths } from '../generated/public-api.js';
import { createTenant, type Tenant, useHarness } from '../helpers/harness.js';
import { freshContact } from '../helpers/outbound.js';
import { recordCall } from '../helpers/reports.js';

// The client an integrator would generate: openapi-typescript types from
// GET /openapi.json (committed as test/generated/public-api.d.ts, so
// `npm run typecheck` checks this file against them) and openapi-fetch,
// driving the three endpoints of a server on a real socket.
const h = useHarness();
let baseUrl: string;
let served: any;
let t: Tenant;
beforeAll(async () => {
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
  served = await (await fetch(`${baseUrl}/openapi.json`)).json();
  t = await createTenant(h);
});

const client = (key: string) =>
  createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${key}` } });

describe('generated client types', () => {
  it('are what /openapi.json generates now (else run npm run openapi:types)', async () => {
    const committed = await readFile(
      new URL('../generated/public-api.d.ts', import.meta.url),
      'utf8',
    );
    expect(await clientTypes(served)).toBe(committed);
  });
});

describe('a generated client against a real server', () => {
  it('creates a DNI session and reads its rate-limit budget', async () => {
    const api = client(t.key);
    const { data, response } = await api.POST('/dni/session', {
      body: { campaign_code: t.code, visitor_id: 'client-1', gclid: 'EAIaIQ' },
    });
    expect(response.status).toBe(201);
    const session: components['schemas']['DniSession'] = data!;
    expect(t.numbers).toContain(session.tracking_number);
    expect(session.dni_session_id).toMatch(/^ds_/);
    expect(Date.parse(session.expires_at)).toBeGreaterThan(h.clock.now());
    expect(response.headers.get('ratelimit-policy')).toBe('"default";q=300;w=60');
    expect(response.headers.get('ratelimit')).toBe('"default";r=299;t=60');
    expect(response.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  });

  it('posts a buyer report, then replays it', async () => {
    const api = client(t.key);
    const callId = await recordCall(h, t);
    const post = () =>
      api.POST('/dni/campaigns/{campaign_code}/buyer-report', {
        params: { path: { campaign_code: t.code } },
        body: { call_id: callId, report_id: 'client-r1', disposition: 'success' },
      });
    const first = await post();
    expect([first.response.status, first.data?.created]).toEqual([201, true]);
    const again = await post();
    expect([again.response.status, again.data?.created]).toEqual([200, false]);
    expect(again.data?.event_id).toBe(first.data?.event_id);
  });

  it('decides an outbound touch, with every check reported', async () => {
    // The harness clock is 10:00 in New York: only consent can fail.
    const { data, response } = await client(t.key).POST(
      '/tracking/campaigns/{campaign_code}/outbound',
      {
        params: { path: { campaign_code: t.code } },
        body: { to_e164: freshContact(212), channel: 'sms', consent_basis: 'pewc', dry_run: true },
      },
    );
    expect(response.status).toBe(200);
    const touch: components['schemas']['Touch'] = data!;
    expect([touch.status, touch.touch_id]).toEqual(['would_block', null]);
    expect(touch.reasons.map((r) => r.code)).toEqual(['consent_missing']);
    expect(touch.checks.consent.passed).toBe(false);
  });

  it('types the error bodies, and the documented 422 example is what the server answers', async () => {
    const api = client(t.key);
    const bad = await api.POST('/dni/session', {
      body: { campaign_code: 'toolong' } as { campaign_code: string; visitor_id: string },
    });
    expect(bad.response.status).toBe(422);
    const detail = bad.error?.detail;
    if (!Array.isArray(detail)) throw new Error(`no 422 items: ${JSON.stringify(bad.error)}`);
    expect(detail.map((d) => [d.type, d.loc])).toEqual([
      ['string_too_long', ['body', 'campaign_code']],
      ['missing', ['body', 'visitor_id']],
    ]);
    expect(bad.error).toEqual(served.components.schemas.HTTPValidationError.examples[0]);

    const missing = await api.POST('/dni/session', {
      body: { campaign_code: 'zzz', visitor_id: 'v' },
    });
    expect([missing.response.status, missing.error?.detail]).toEqual([404, 'campaign_not_found']);
    const anon = await client(`svc_live_${'0'.repeat(40)}`).POST('/dni/session', {
      body: { campaign_code: t.code, visitor_id: 'v' },
    });
    expect([anon.response.status, anon.error?.detail]).toEqual([401, 'invalid_api_key']);
    expect(anon.response.headers.get('www-authenticate')).toBe('Bearer');
  });
});

/**
 * Never called: `npm run typecheck` fails if the generated types stop
 * matching the schemas (unknown keys forbidden, enums closed, path params required).
 */
function typeChecks(api: ReturnType<typeof client>) {
  const session: components['schemas']['DniSessionRequest'] = {
    campaign_code: 'a',
    visitor_id: 'v',
    // @ts-expect-error: additionalProperties false is a closed type
    color: 'red',
  };
  api.POST('/dni/campaigns/{campaign_code}/buyer-report', {
    params: { path: { campaign_code: 'a' } },
    // @ts-expect-error: disposition is success or rejected
    body: { call_id: 'c', report_id: 'r', disposition: 'maybe' },
  });
  const body = { to_e164: '+14155550123', channel: 'sms', consent_basis: 'pewc' } as const;
  // @ts-expect-error: the campaign_code path parameter is required
  api.POST('/tracking/campaigns/{campaign_code}/outbound', { body });
  return session;
}
void typeChecks;
