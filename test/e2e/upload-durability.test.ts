import { describe, expect, it } from 'vitest';
import { DESTINATION_BODIES } from '../helpers/conversions.js';
import { FakeAdPlatforms } from '../helpers/fake-ad-platforms.js';
import { builtArgs, runToEnd } from '../helpers/processes.js';
import {
  orgWithCampaign,
  post,
  type ServerProcess,
  until,
  useRestartableServer,
} from '../helpers/server-process.js';

/**
 * Issue 22: a conversion committed with its buyer report is uploaded after a SIGKILL that
 * hits while the upload is in flight, exactly once at the platform. Then the same data with
 * a wrong SECRETS_KEY: the server refuses to start, with one line saying so.
 */
const KEY = 'a'.repeat(64);
const WRONG_KEY = 'b'.repeat(64);
const servers = useRestartableServer('upload-durability');
const { admin, cleanup } = servers;

describe('SIGKILL between the buyer report and the upload', () => {
  it('uploads after restart, once; a wrong SECRETS_KEY then stops start-up with one line', async () => {
    const fake = await new FakeAdPlatforms().start();
    cleanup(() => fake.close());
    let up = false;
    fake.script = (s) => (s.path.endsWith(':uploadClickConversions') && !up ? 'hang' : null);
    const u = fake.urls();
    const env = await servers.env({
      SECRETS_KEY: KEY,
      GOOGLE_ADS_API_BASE: u.googleAdsApiBase,
      GOOGLE_OAUTH_TOKEN_URL: u.googleOauthTokenUrl,
      UPLOAD_TIMEOUT_MS: '1000',
      WORKER_POLL_MS: '50',
    });
    let server: ServerProcess = await servers.start(env);

    const { orgId } = await orgWithCampaign(
      server,
      admin,
      { name: 'Kill', tracking_enabled: true },
      'u1',
    );
    const key = await post(
      `${server.adminUrl}/admin/orgs/${orgId}/keys`,
      { scopes: ['enroll', 'execute'] },
      admin,
    );
    const dest = await post(
      `${server.adminUrl}/admin/orgs/${orgId}/conversion-destinations`,
      { platform: 'google_ads', name: 'G', ...DESTINATION_BODIES.google_ads },
      admin,
    );
    expect(dest.status).toBe(201);
    const bearer = { authorization: `Bearer ${key.body.api_key}` };
    const session = await post(
      `${server.apiUrl}/dni/session`,
      { campaign_code: 'u1', visitor_id: 'v1', gclid: 'G-kill' },
      bearer,
    );
    expect(session.status).toBe(201);
    const call = await post(
      `${server.adminUrl}/admin/orgs/${orgId}/calls`,
      { to: session.body.tracking_number, from: '+12125550100' },
      admin,
    );
    const reported = await post(
      `${server.apiUrl}/dni/campaigns/u1/buyer-report`,
      { call_id: call.body.call_id, report_id: 'k-1', disposition: 'success' },
      bearer,
    );
    expect(reported.status).toBe(201);

    // The upload is in flight and no answer will come: kill the server now.
    const uploads = () => fake.requests.filter((r) => r.path.endsWith(':uploadClickConversions'));
    await until('the first upload attempt', () => uploads().length >= 1);
    await server.kill('SIGKILL');
    expect(server.child.signalCode).toBe('SIGKILL');

    up = true;
    server = await servers.start(env);
    await until('the upload after restart', () => fake.google.length >= 1, 60_000);
    // Another lease period passes: nothing more is sent.
    await new Promise((r) => setTimeout(r, 1500));
    expect(fake.google.map((c) => [c.gclid, c.orderId])).toEqual([['G-kill', call.body.call_id]]);
    expect(uploads().map((r) => r.body.conversions[0].orderId)).toEqual([
      call.body.call_id,
      call.body.call_id,
    ]);
    await server.kill('SIGTERM');
    expect(server.child.exitCode).toBe(0);

    const wrong = await runToEnd(
      process.execPath,
      builtArgs('src/server.ts'),
      {
        ...env,
        SECRETS_KEY: WRONG_KEY,
        PORT: '0',
        ADMIN_PORT: '0',
        CONSOLE_PORT: '0',
        HOST: '127.0.0.1',
      },
      180_000,
    );
    expect(wrong.code, wrong.stderr).toBe(1);
    const lines = wrong.stderr.trim().split('\n');
    expect(lines, wrong.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^failed to start: SECRETS_KEY does not decrypt the stored conversion-destination secrets \(written under key [0-9a-f]{8}, SECRETS_KEY is key [0-9a-f]{8}\)/,
    );
    // Nor the key itself, old or new, anywhere in what it wrote.
    expect(wrong.stderr + wrong.stdout).not.toContain(KEY);
    expect(wrong.stderr + wrong.stdout).not.toContain(WRONG_KEY);
  }, 300_000);
});
