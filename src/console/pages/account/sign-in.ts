import type { FastifyRequest, preHandlerHookHandler } from 'fastify';
import { login, logout, type Viewer } from '../../../domain/console/accounts.js';
import { formOf } from '../../context.js';
import { type Html, html } from '../../html.js';
import { bare, orgPath } from '../../layout.js';
import { cookieOptions } from '../../security.js';
import { type AccountEnv, guarded, safeNext, send, startSession } from './shared.js';

/** The sign-in form; an invitation shows it with its own heading (`intro`). */
export function loginForm(
  token: string,
  next: string,
  email: string,
  problem?: Html | string,
  intro?: Html,
) {
  return bare(
    'Sign in',
    html`${intro ?? html`<h1>Sign in</h1>`}
${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
<form method="post" action="/login" class="stack">
<input type="hidden" name="_csrf" value="${token}">
<input type="hidden" name="next" value="${next}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${email}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
<p class="hint">No account yet? Ask your operator for an invitation link. Forgot your password? Ask them for a reset link.</p>`,
  );
}

/** The sign-in form, and signing in: throttled, the same answer for an unknown email and a wrong password. */
export function signInRoutes(env: AccountEnv): void {
  const { app, deps, h, now } = env;
  app.get('/login', async (req, reply) => {
    const next = safeNext((req.query as { next?: string }).next);
    if (await h.signedIn(req)) return reply.redirect(next, 303);
    return send(reply, loginForm(reply.generateCsrf(), next, ''));
  });

  app.post('/login', guarded(env), async (req, reply) => {
    const form = formOf(req);
    const email = (form.get('email') ?? '').slice(0, 320);
    const next = safeNext(form.get('next'));
    const result = await login(
      deps.repos,
      deps.limiter,
      h.policy,
      { email, password: (form.get('password') ?? '').slice(0, 1024), address: req.ip },
      now(),
    );
    if (result.ok) {
      startSession(env, reply, result.cookie);
      return reply.redirect(next, 303);
    }
    const token = reply.generateCsrf();
    if (result.reason === 'throttled') {
      reply.header('retry-after', String(result.retryAfterSeconds));
      const minutes = Math.ceil(result.retryAfterSeconds / 60);
      return send(
        reply,
        loginForm(token, next, email, `Too many attempts. Try again in ${minutes} minute(s).`),
        429,
      );
    }
    return send(reply, loginForm(token, next, email, 'Wrong email or password.'), 401);
  });
}

/** Logout, here or on every device: the session ends and both cookies are cleared. */
export function logoutRoutes(env: AccountEnv): void {
  const { app, deps, h, now, s } = env;
  const sessions = new WeakMap<FastifyRequest, Viewer>();
  /** The token is checked only when there is a session to end; without one, logout only redirects. */
  const guardSession: preHandlerHookHandler = function (req, reply, done) {
    h.signedIn(req).then((viewer) => {
      if (!viewer) return done();
      sessions.set(req, viewer);
      app.csrfProtection.call(this, req, reply, done);
    }, done);
  };

  for (const [path, everywhere] of [
    ['/logout', false],
    ['/logout-everywhere', true],
  ] as const) {
    app.post(path, { preHandler: guardSession }, async (req, reply) => {
      const viewer = sessions.get(req);
      if (viewer) await logout(deps.repos, viewer, everywhere, now());
      reply.clearCookie(h.names.session, cookieOptions(s));
      reply.clearCookie(h.names.csrf, cookieOptions(s));
      return reply.redirect('/login', 303);
    });
  }
}

/** The console's front door: the first organization's Overview, or where a person without one goes. */
export function homeRoutes(env: AccountEnv): void {
  const { app, h } = env;
  app.get('/', async (req, reply) => {
    const viewer = await h.signedIn(req);
    if (!viewer) return reply.redirect('/login', 303);
    const ctx = await h.pageContext(req, reply, viewer);
    const first = ctx.orgs[0];
    if (first) return reply.redirect(orgPath(first.id, 'overview'), 303);
    return reply.redirect(viewer.user.operator ? '/operator/orgs' : '/account', 303);
  });

  app.get('/switch', async (req, reply) => {
    const org = String((req.query as { org?: string }).org ?? '');
    return reply.redirect(org ? orgPath(org, 'overview') : '/', 303);
  });
}
