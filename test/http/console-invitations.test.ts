import { describe, expect, it } from 'vitest';
import { createLink, LOGIN_LIMITS, sessionPolicy } from '../../src/domain/console/accounts.js';
import type { LinkRole } from '../../src/domain/console/ports.js';
import {
  client,
  csrfOf,
  freshEmail,
  makeUser,
  PASSWORD,
  signIn,
  useConsole,
} from '../helpers/console.js';
import { createTenant, useHarness } from '../helpers/harness.js';

/**
 * Invitation links: nobody joins an organization without agreeing. A link for
 * an email that has an account is accepted only by that account, signed in
 * (or signing in on the page with its own password); the page names the
 * organization and role first; the link and the audit log name who accepted.
 */
const h = useHarness();
const c = useConsole(h);

async function invite(orgId: string, email: string, role: LinkRole = 'viewer') {
  // A fresh login window: every test signs in from the same address.
  h.clock.advance(LOGIN_LIMITS.windowMs / 1000);
  const { token } = await createLink(
    h.deps.repos,
    sessionPolicy(c.settings),
    { kind: 'invitation', email, role, orgId },
    'console:boss@example.test',
    new Date(h.clock.now()),
  );
  return `/invite/${token}`;
}

const membership = (email: string, orgId: string) =>
  h.store.query<{ role: string }>(
    `select m.role from console_memberships m join console_users u on u.id = m.user_id
      where u.email = $1 and m.org_id = $2`,
    [email, orgId],
  );

const linkOf = (path: string) =>
  h.store.query<{ used_at: Date | null; used_by: string | null }>(
    `select used_at, used_by from console_links where id = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
    [path.slice('/invite/'.length)],
  );

const accepted = (orgId: string) =>
  h.store.query<{ actor: string; subject_id: string; detail: Record<string, unknown> }>(
    `select actor, subject_id, detail from audit_log
      where action = 'console_invitation.accepted' and org_id = $1`,
    [orgId],
  );

describe('an invitation for an email that has an account', () => {
  it('opened with a wrong password adds nothing', async () => {
    const t = await createTenant(h);
    const person = await makeUser(h, 'viewer', null);
    const path = await invite(t.orgId, person.email, 'manager');
    const visitor = client(c.app);
    const page = await visitor.get(path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`to <strong>Test org</strong> as <strong>manager</strong>`);
    expect(page.body).toContain('boss@example.test invites');
    expect(page.body).toContain('has an account: sign in as that account to accept');
    visitor.csrf = csrfOf(page.body);
    const res = await visitor.post(path, { password: 'a wrong password of enough length' });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('Wrong password.');
    expect(Object.keys(visitor.jar)).toEqual(['console_csrf']);
    expect(await membership(person.email, t.orgId)).toEqual([]);
    expect(await linkOf(path)).toEqual([{ used_at: null, used_by: null }]);
    expect(await accepted(t.orgId)).toEqual([]);
    // Nor with no password at all, nor by another signed-in person.
    const strangerEmail = (await makeUser(h, 'viewer', null)).email;
    const stranger = await signIn(c.app, strangerEmail);
    const asStranger = await stranger.post(path, {});
    expect(asStranger.statusCode).not.toBe(303);
    expect(await membership(person.email, t.orgId)).toEqual([]);
    const strangerPage = await stranger.get(path);
    expect(strangerPage.body).toContain(`You are signed in as ${strangerEmail};`);
    expect(await linkOf(path)).toEqual([{ used_at: null, used_by: null }]);
  });

  it('with the account’s own password: accepted, signed in, and the link and audit name who', async () => {
    const t = await createTenant(h);
    const person = await makeUser(h, 'viewer', null);
    const path = await invite(t.orgId, person.email);
    const visitor = client(c.app);
    visitor.csrf = csrfOf((await visitor.get(path)).body);
    const res = await visitor.post(path, { password: PASSWORD });
    expect([res.statusCode, res.headers.location]).toEqual([303, `/orgs/${t.orgId}/overview`]);
    expect(await membership(person.email, t.orgId)).toEqual([{ role: 'viewer' }]);
    expect(await linkOf(path)).toEqual([{ used_at: expect.any(Date), used_by: person.id }]);
    expect(await accepted(t.orgId)).toEqual([
      {
        actor: `console:${person.email}`,
        subject_id: person.id,
        detail: expect.objectContaining({
          email: person.email,
          role: 'viewer',
          invited_by: 'console:boss@example.test',
        }),
      },
    ]);
    expect((await visitor.get(`/orgs/${t.orgId}/overview`)).statusCode).toBe(200);
    // The operator sees who used it.
    const operator = await signIn(c.app, (await makeUser(h, 'operator')).email);
    const users = await operator.get('/operator/users?format=csv&table=links');
    expect(users.body).toMatch(
      new RegExp(
        `${person.email.replace(/\./g, '\\.')}.*used,${person.email.replace(/\./g, '\\.')}`,
      ),
    );
  });

  it('signed in as that account: one click, with the session’s CSRF token', async () => {
    const t = await createTenant(h);
    const person = await makeUser(h, 'viewer', null);
    const path = await invite(t.orgId, person.email);
    const me = await signIn(c.app, person.email);
    const page = await me.get(path);
    expect(page.body).not.toContain('type="password"');
    const forged = await me.post(path, {}, false);
    expect(forged.statusCode).toBe(403);
    expect(await membership(person.email, t.orgId)).toEqual([]);
    const res = await me.post(path, {});
    expect([res.statusCode, res.headers.location]).toEqual([303, `/orgs/${t.orgId}/overview`]);
    expect(await membership(person.email, t.orgId)).toEqual([{ role: 'viewer' }]);
    expect((await me.post(path, {})).statusCode).toBe(404);
  });
});

describe('an invitation for a new person', () => {
  it('names the organization and role, creates the account and signs it in', async () => {
    const t = await createTenant(h);
    const email = freshEmail('new');
    const path = await invite(t.orgId, email, 'manager');
    const visitor = client(c.app);
    const page = await visitor.get(path);
    expect(page.body).toContain(`to <strong>Test org</strong> as <strong>manager</strong>`);
    expect(page.body).toContain('Choose a password');
    visitor.csrf = csrfOf(page.body);
    const res = await visitor.post(path, { password: PASSWORD });
    expect([res.statusCode, res.headers.location]).toEqual([303, `/orgs/${t.orgId}/overview`]);
    expect(await membership(email, t.orgId)).toEqual([{ role: 'manager' }]);
    expect((await visitor.get(`/orgs/${t.orgId}/overview`)).statusCode).toBe(200);
  });
});
