import { describe, expect, it } from 'vitest';
import { cli, useCliSuite } from '../helpers/cli.js';
import { client, csrfOf, freshEmail, signIn, useConsole } from '../helpers/console.js';

const s = useCliSuite();
const c = useConsole(s.h);

const PASSWORD = 'a long enough password';

describe('tracking-admin user', () => {
  it('create --role operator --password-stdin makes an operator who can sign in', async () => {
    const email = freshEmail('first-operator');
    const r = await cli(
      ['user', 'create', '--email', email, '--role', 'operator', '--password-stdin', '--json'],
      s.env,
      {},
      `${PASSWORD}\n`,
    );
    expect(r, r.err).toMatchObject({ code: 0 });
    expect(JSON.parse(r.out)).toMatchObject({ email, role: 'operator', org_id: null });
    const session = await signIn(c.app, email, PASSWORD);
    expect((await session.get('/operator/orgs')).statusCode).toBe(200);
  });

  it('refuses a short password and an email that is taken', async () => {
    const email = freshEmail('taken');
    const short = await cli(
      ['user', 'create', '--email', email, '--role', 'operator', '--password-stdin'],
      s.env,
      {},
      'short',
    );
    expect(short.code).not.toBe(0);
    await cli(
      ['user', 'create', '--email', email, '--role', 'operator', '--password-stdin'],
      s.env,
      {},
      PASSWORD,
    );
    const again = await cli(
      ['user', 'create', '--email', email, '--role', 'operator', '--password-stdin'],
      s.env,
      {},
      PASSWORD,
    );
    expect(again.code).not.toBe(0);
  });

  it('invite makes a link that expires and works once; reset-link sets a new password and ends sessions', async () => {
    const org = await s.newOrg();
    const email = freshEmail('invited');
    const link = await s.quiet([
      'user',
      'invite',
      '--email',
      email,
      '--role',
      'viewer',
      '--org',
      org,
    ]);
    const path = new URL(link).pathname;
    const anon = client(c.app);
    anon.csrf = csrfOf((await anon.get(path)).body);
    expect((await anon.post(path, { password: PASSWORD })).statusCode).toBe(303);
    expect((await anon.get(path)).statusCode).toBe(404);
    const viewer = await signIn(c.app, email, PASSWORD);
    expect((await viewer.get(`/orgs/${org}/overview`)).statusCode).toBe(200);

    const reset = new URL(await s.quiet(['user', 'reset-link', '--email', email])).pathname;
    const other = client(c.app);
    other.csrf = csrfOf((await other.get(reset)).body);
    expect((await other.post(reset, { password: `${PASSWORD} two` })).statusCode).toBe(303);
    expect((await viewer.get('/account')).statusCode).toBe(303);
    await signIn(c.app, email, `${PASSWORD} two`);

    const late = new URL(
      await s.quiet(['user', 'invite', '--email', freshEmail(), '--role', 'manager', '--org', org]),
    ).pathname;
    s.h.clock.advance(73 * 3600);
    expect((await client(c.app).get(late)).statusCode).toBe(404);
  });
});
