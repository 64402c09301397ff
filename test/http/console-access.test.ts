import { describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '../../src/domain/console/accounts.js';
import { freshEmail, makeUser, signIn, useConsole } from '../helpers/console.js';
import { adminCall, createTenant, freshNumbers, useHarness } from '../helpers/harness.js';
import { TEST_WEBHOOK_SETTINGS } from '../helpers/webhooks.js';

/**
 * Who may see and change what, over plain HTTP: a viewer of A sees A and
 * nothing of B (404 like a missing thing), cannot change A (403), and a
 * change without the CSRF token changes nothing.
 */
const h = useHarness();
const c = useConsole(h);

const HOSTILE = '<script>alert(1)</script>"><img src=x onerror=alert(2)>\u202Eexe.txt';

async function setup() {
  // Two sign-ins per test from one address: a new login window each time keeps the
  // per-address throttle (console-auth.test.ts's subject) out of these tests.
  h.clock.advance(LOGIN_LIMITS.windowMs / 1000);
  const a = await createTenant(h);
  const b = await createTenant(h);
  const viewer = await makeUser(h, 'viewer', a.orgId);
  const manager = await makeUser(h, 'manager', a.orgId);
  return {
    a,
    b,
    viewer: await signIn(c.app, viewer.email),
    manager: await signIn(c.app, manager.email),
  };
}

const pagesOf = (orgId: string, code: string) => [
  `/orgs/${orgId}/overview`,
  `/orgs/${orgId}/calls`,
  `/orgs/${orgId}/campaigns`,
  `/orgs/${orgId}/campaigns/${code}`,
  `/orgs/${orgId}/compliance`,
  `/orgs/${orgId}/webhooks`,
  `/orgs/${orgId}/people`,
  `/orgs/${orgId}/calls?format=csv&table=calls`,
];

describe('organizations', () => {
  it('a viewer of A sees every page of A', async () => {
    const { a, viewer } = await setup();
    for (const url of pagesOf(a.orgId, a.code))
      expect((await viewer.get(url)).statusCode, url).toBe(200);
  });

  it('a viewer of A gets 404 for anything of B, as for what does not exist', async () => {
    const { a, b, viewer } = await setup();
    const call = await adminCall(h, 'POST', `/admin/orgs/${b.orgId}/calls`, {
      to: b.numbers[0],
      from: '+13125550100',
    });
    const urls = [
      ...pagesOf(b.orgId, b.code),
      `/orgs/${b.orgId}/calls/${call.call_id}`,
      `/orgs/${a.orgId}/calls/${call.call_id}`,
      `/orgs/${a.orgId}/campaigns/${b.code === a.code ? 'zzz' : b.code}`,
      '/orgs/org_000000000000000000000000/overview',
      '/operator/orgs',
      `/operator/orgs/${a.orgId}`,
      '/operator/users',
    ];
    for (const url of urls) {
      const res = await viewer.get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain(b.orgId);
    }
  });

  it('a viewer gets 403 for manager actions and nothing changes', async () => {
    const { a, viewer } = await setup();
    const before = await adminCall(h, 'GET', `/admin/orgs/${a.orgId}/campaigns/${a.code}`);
    const res = await viewer.post(`/orgs/${a.orgId}/campaigns/${a.code}/numbers`, {
      numbers: '+14155550199',
    });
    expect(res.statusCode).toBe(403);
    const create = await viewer.post(`/orgs/${a.orgId}/campaigns`, {
      code: 'zz',
      name: 'x',
      numbers: '+14155550198',
    });
    expect(create.statusCode).toBe(403);
    expect(await adminCall(h, 'GET', `/admin/orgs/${a.orgId}/campaigns/${a.code}`)).toEqual(before);
    expect((await viewer.post(`/operator/orgs`, { name: 'mine' })).statusCode).toBe(404);
  });

  it('a manager changes numbers; without the CSRF token the same request changes nothing', async () => {
    const { a, manager } = await setup();
    const url = `/orgs/${a.orgId}/campaigns/${a.code}/numbers`;
    const [fresh] = freshNumbers(1);
    const refused = await manager.post(url, { numbers: fresh! }, false);
    expect(refused.statusCode).toBe(403);
    let shown = await adminCall(h, 'GET', `/admin/orgs/${a.orgId}/campaigns/${a.code}`);
    expect(shown.numbers).not.toContain(fresh);
    const done = await manager.post(url, { numbers: fresh! });
    expect(done.statusCode).toBe(303);
    shown = await adminCall(h, 'GET', `/admin/orgs/${a.orgId}/campaigns/${a.code}`);
    expect(shown.numbers).toContain(fresh);
    const audit = await adminCall(h, 'GET', `/admin/orgs/${a.orgId}/audit?limit=5`);
    expect(audit.items[0].actor).toMatch(/^console:manager\./);
  });

  it('a manager replays webhooks of A through the admin service; B’s endpoint is a 404', async () => {
    const { a, b, manager } = await setup();
    const hook = async (orgId: string) =>
      (
        await adminCall(h, 'POST', `/admin/orgs/${orgId}/webhooks`, {
          url: 'http://127.0.0.1:9/hook',
          events: ['call.received'],
        })
      ).webhook_id as string;
    const before = h.deps.webhooks;
    h.deps.webhooks = TEST_WEBHOOK_SETTINGS; // a loopback receiver, never called here
    const [mine, theirs] = await Promise.all([hook(a.orgId), hook(b.orgId)]).finally(() => {
      h.deps.webhooks = before;
    });
    const since = new Date(0).toISOString();
    const other = await manager.post(`/orgs/${a.orgId}/webhooks/${theirs}/replay`, { since });
    expect(other.statusCode).toBe(404);
    const ofB = await adminCall(h, 'GET', `/admin/orgs/${b.orgId}/audit?action=webhook.replayed`);
    expect(ofB.items).toEqual([]);
    const done = await manager.post(`/orgs/${a.orgId}/webhooks/${mine}/replay`, { since });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toMatch(/notice=nothing$/);
    const ofA = await adminCall(h, 'GET', `/admin/orgs/${a.orgId}/audit?action=webhook.replayed`);
    expect(ofA.items).toHaveLength(1);
    expect(ofA.items[0]).toMatchObject({ subject_id: mine, detail: { since, queued: 0 } });
    expect(ofA.items[0].actor).toMatch(/^console:manager\./);
  });
});

describe('invitations by a manager', () => {
  const links = (email: string) =>
    h.store.query<{ org_id: string | null; role: string; created_by: string }>(
      'select org_id, role, created_by from console_links where email = $1',
      [email],
    );
  const audit = (orgId: string | null, email: string) =>
    h.store.query<{ org_id: string | null; actor: string; detail: { role: string } }>(
      `select org_id, actor, detail from audit_log
        where action = 'console_invitation.created' and detail->>'email' = $1
          and org_id is not distinct from $2`,
      [email, orgId],
    );

  it('a manager invites a viewer or a manager of their organization, audited with them as actor', async () => {
    const { a, manager } = await setup();
    for (const role of ['viewer', 'manager']) {
      const email = freshEmail(`invited-${role}`);
      const res = await manager.post(`/orgs/${a.orgId}/people/invitations`, { email, role });
      expect(res.statusCode).toBe(200);
      expect(res.body).toMatch(new RegExp(`${c.settings.publicUrl}/invite/[A-Za-z0-9_-]{43}<`));
      expect(await links(email)).toEqual([
        { org_id: a.orgId, role, created_by: expect.stringMatching(/^console:manager\./) },
      ]);
      const lines = await audit(a.orgId, email);
      expect(lines).toHaveLength(1);
      expect(lines[0]!.actor).toMatch(/^console:manager\./);
      expect(lines[0]!.detail.role).toBe(role);
    }
    const people = await manager.get(`/orgs/${a.orgId}/people`);
    expect(people.statusCode).toBe(200);
    expect(people.body).toContain('Make invitation link');
  });

  it('a manager cannot invite an operator (403) and nothing is written', async () => {
    const { a, manager } = await setup();
    const email = freshEmail('would-be-operator');
    const res = await manager.post(`/orgs/${a.orgId}/people/invitations`, {
      email,
      role: 'operator',
    });
    expect(res.statusCode).toBe(403);
    expect(await links(email)).toEqual([]);
    expect(await audit(null, email)).toEqual([]);
    expect(await audit(a.orgId, email)).toEqual([]);
  });

  it('a manager of A inviting into B gets 404, as for an organization that does not exist', async () => {
    const { b, manager } = await setup();
    const email = freshEmail('into-b');
    for (const org of [b.orgId, 'org_000000000000000000000000']) {
      const res = await manager.post(`/orgs/${org}/people/invitations`, { email, role: 'viewer' });
      expect(res.statusCode, org).toBe(404);
      expect(res.body).not.toContain(b.orgId);
    }
    expect((await manager.get(`/orgs/${b.orgId}/people`)).statusCode).toBe(404);
    expect(await links(email)).toEqual([]);
    expect(await audit(b.orgId, email)).toEqual([]);
  });

  it('a viewer cannot invite (403) and sees no invitation form', async () => {
    const { a, viewer } = await setup();
    const email = freshEmail('by-viewer');
    const res = await viewer.post(`/orgs/${a.orgId}/people/invitations`, { email, role: 'viewer' });
    expect(res.statusCode).toBe(403);
    expect(await links(email)).toEqual([]);
    const people = await viewer.get(`/orgs/${a.orgId}/people`);
    expect(people.statusCode).toBe(200);
    expect(people.body).not.toContain('people/invitations');
  });

  it('without the CSRF token the invitation is refused and nothing is written', async () => {
    const { a, manager } = await setup();
    const email = freshEmail('no-csrf');
    const res = await manager.post(
      `/orgs/${a.orgId}/people/invitations`,
      { email, role: 'viewer' },
      false,
    );
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain('/invite/');
    expect(await links(email)).toEqual([]);
    expect(await audit(a.orgId, email)).toEqual([]);
  });

  it('an unknown role is a 422 and writes nothing', async () => {
    const { a, manager } = await setup();
    const email = freshEmail('odd-role');
    const res = await manager.post(`/orgs/${a.orgId}/people/invitations`, {
      email,
      role: 'owner',
    });
    expect(res.statusCode).toBe(422);
    expect(await links(email)).toEqual([]);
  });
});

describe('hostile strings', () => {
  it('are escaped wherever they are shown, and bidi controls are made visible', async () => {
    const { a, manager } = await setup();
    await adminCall(h, 'PATCH', `/admin/orgs/${a.orgId}/campaigns/${a.code}`, { name: HOSTILE });
    for (const url of [
      `/orgs/${a.orgId}/campaigns`,
      `/orgs/${a.orgId}/campaigns/${a.code}`,
      `/orgs/${a.orgId}/calls`,
    ]) {
      const res = await manager.get(url);
      expect(res.body, url).not.toContain('<script>alert');
      expect(res.body, url).not.toContain('<img src=x');
      expect(res.body, url).not.toContain('\u202E');
    }
    const page = await manager.get(`/orgs/${a.orgId}/campaigns`);
    expect(page.body).toContain(
      '&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;[U+202E]exe.txt',
    );
  });

  it('a CSV cell that a spreadsheet would run as a formula starts with an apostrophe', async () => {
    const { a, manager } = await setup();
    await adminCall(h, 'PATCH', `/admin/orgs/${a.orgId}/campaigns/${a.code}`, {
      name: '=HYPERLINK("x")',
    });
    const res = await manager.get(`/orgs/${a.orgId}/campaigns?format=csv&table=campaigns`);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.body).toContain(`"'=HYPERLINK(""x"")"`);
  });
});

describe('compliance', () => {
  it('counts every opt-out of the range, though the table lists the latest 500', async () => {
    const { a, viewer } = await setup();
    const at = new Date(h.clock.now() - 3_600_000).toISOString();
    await h.store.query(
      `insert into consent_events (id, org_id, e164, kind, captured_at, fingerprint, actor, recorded_at)
       select 'ce_many_' || g, $1, '+1415777' || lpad(g::text, 4, '0'), 'opt_out', $2::timestamptz,
              'fp_many_' || g, 'test', $2::timestamptz
         from generate_series(1, 501) g`,
      [a.orgId, at],
    );
    const page = await viewer.get(`/orgs/${a.orgId}/compliance`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/data-metric="opt_outs">501</);
    expect(page.body).toContain('the latest 500 of 501');
  });
});
