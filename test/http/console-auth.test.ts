import { describe, expect, it } from 'vitest';
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

const h = useHarness();
const c = useConsole(h);
const secure = useConsole(h, { settings: { secureCookies: true } });

describe('login', () => {
  it('sends anyone not signed in to a login form with email and password fields', async () => {
    const res = await client(c.app).get('/orgs/org_x/calls');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login?next=%2Forgs%2Forg_x%2Fcalls');
    const form = await client(c.app).get('/login');
    expect(form.body).toContain('name="email"');
    expect(form.body).toContain('name="password"');
  });

  it('signs in with the right password, with an HttpOnly SameSite=Lax cookie', async () => {
    const u = await makeUser(h, 'operator');
    const anon = client(c.app);
    anon.csrf = csrfOf((await anon.get('/login')).body);
    const res = await anon.post('/login', { email: u.email.toUpperCase(), password: PASSWORD });
    expect(res.statusCode).toBe(303);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/console_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax/);
    expect((await anon.get('/account')).body).toContain(u.email);
  });

  it('answers an unknown email exactly like a wrong password', async () => {
    const u = await makeUser(h, 'operator');
    const attempt = async (email: string) => {
      const a = client(c.app);
      a.csrf = csrfOf((await a.get('/login')).body);
      const res = await a.post('/login', { email, password: 'not the password at all' });
      return { status: res.statusCode, body: res.body.replace(/value="[^"]*"/g, '') };
    };
    const wrong = await attempt(u.email);
    const unknown = await attempt(freshEmail('nobody'));
    expect(wrong.status).toBe(401);
    expect(unknown).toEqual(wrong);
  });

  it('throttles an account after 5 attempts in the window, even with the right password', async () => {
    const u = await makeUser(h, 'operator');
    const a = client(c.app);
    a.csrf = csrfOf((await a.get('/login')).body);
    for (let i = 0; i < 5; i++)
      expect(
        (await a.post('/login', { email: u.email, password: 'wrong password!!' })).statusCode,
      ).toBe(401);
    const blocked = await a.post('/login', { email: u.email, password: PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect(a.jar.console_session).toBeUndefined();
    h.clock.advance(15 * 60);
    expect((await a.post('/login', { email: u.email, password: PASSWORD })).statusCode).toBe(303);
  });

  it('with Secure configured, both cookies are __Host- cookies with Secure', async () => {
    const u = await makeUser(h, 'operator');
    const a = client(secure.app);
    const form = await a.get('/login');
    expect(String(form.headers['set-cookie'])).toMatch(
      /^__Host-console_csrf=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
    );
    a.csrf = csrfOf(form.body);
    const res = await a.post('/login', { email: u.email, password: PASSWORD });
    expect(res.statusCode).toBe(303);
    expect(res.headers['set-cookie']).toContainEqual(
      expect.stringMatching(
        /^__Host-console_session=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
      ),
    );
    expect((await a.get('/account')).body).toContain(u.email);
  });

  it('refuses a login post with a forged token, and signs nobody in', async () => {
    const u = await makeUser(h, 'operator');
    const a = client(c.app);
    const real = csrfOf((await a.get('/login')).body);
    a.csrf = `${real.slice(0, -2)}${real.endsWith('AA') ? 'BB' : 'AA'}`;
    const res = await a.post('/login', { email: u.email, password: PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('The form was stale or came from elsewhere.');
    expect(a.jar.console_session).toBeUndefined();
  });

  it('refuses a login post without the form token, and signs nobody in', async () => {
    const u = await makeUser(h, 'operator');
    const a = client(c.app);
    await a.get('/login');
    const res = await a.post('/login', { email: u.email, password: PASSWORD }, false);
    expect(res.statusCode).toBe(403);
    expect(a.jar.console_session).toBeUndefined();
  });
});

describe('sessions', () => {
  it('logout ends the session: the old cookie is refused afterwards', async () => {
    const u = await makeUser(h, 'operator');
    const s = await signIn(c.app, u.email);
    const saved = { ...s.jar };
    expect((await s.post('/logout', {})).statusCode).toBe(303);
    const again = client(c.app, saved);
    expect((await again.get('/account')).statusCode).toBe(303);
  });

  it('log out everywhere ends every session of the person', async () => {
    const u = await makeUser(h, 'operator');
    const one = await signIn(c.app, u.email);
    const two = await signIn(c.app, u.email);
    expect((await two.get('/account')).statusCode).toBe(200);
    expect((await one.post('/logout-everywhere', {})).statusCode).toBe(303);
    expect((await two.get('/account')).statusCode).toBe(303);
  });

  it('an idle session expires, and so does an old one however busy', async () => {
    const u = await makeUser(h, 'operator');
    const idle = await signIn(c.app, u.email);
    h.clock.advance(31 * 60);
    expect((await idle.get('/account')).statusCode).toBe(303);

    const busy = await signIn(c.app, u.email);
    for (let i = 0; i < 12 * 3; i++) {
      h.clock.advance(20 * 60);
      const res = await busy.get('/account');
      if (i < 12 * 3 - 1) expect(res.statusCode).toBe(200);
      else expect(res.statusCode).toBe(303);
    }
  });

  it('the idle clock is exact to the second: idle time counts from the last request', async () => {
    const u = await makeUser(h, 'operator');
    const idleMs = c.settings.idleMinutes * 60_000;
    const s = await signIn(c.app, u.email);
    // A request 59 s after signing in restarts the idle clock from then.
    h.clock.advance(59);
    expect((await s.get('/account')).statusCode).toBe(200);
    h.clock.ms += idleMs - 1000;
    expect((await s.get('/account')).statusCode).toBe(200);
    // Exactly idleMs after that last request, the session is over.
    h.clock.ms += idleMs;
    expect((await s.get('/account')).statusCode).toBe(303);
  });

  it('a token shown before signing in is refused after it', async () => {
    const u = await makeUser(h, 'operator');
    const a = client(c.app);
    a.csrf = csrfOf((await a.get('/login')).body);
    expect((await a.post('/login', { email: u.email, password: PASSWORD })).statusCode).toBe(303);
    expect((await a.get('/account')).statusCode).toBe(200);
    // a.csrf is still the login form's token.
    expect((await a.post('/logout-everywhere', {})).statusCode).toBe(403);
    expect((await a.get('/account')).statusCode).toBe(200);
  });

  it('a state change without the CSRF token changes nothing', async () => {
    const u = await makeUser(h, 'operator');
    const s = await signIn(c.app, u.email);
    const res = await s.post('/logout-everywhere', {}, false);
    expect(res.statusCode).toBe(403);
    expect((await s.get('/account')).statusCode).toBe(200);
  });
});

describe('headers', () => {
  it('every page carries the CSP, nosniff and no framing', async () => {
    const t = await createTenant(h);
    const u = await makeUser(h, 'operator');
    const s = await signIn(c.app, u.email);
    for (const url of [
      '/login',
      '/account',
      `/orgs/${t.orgId}/calls`,
      '/nope',
      '/assets/console.css',
    ]) {
      const res = await s.get(url);
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(res.headers['content-security-policy'], url).not.toContain('unsafe-inline');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      // Nothing from another origin: every source is 'self' or 'none'.
      expect(res.headers['content-security-policy'], url).toBe(
        "default-src 'none';script-src 'self';style-src 'self';img-src 'self';connect-src 'self';form-action 'self';frame-ancestors 'none';base-uri 'none'",
      );
    }
  });
});
