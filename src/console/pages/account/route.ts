import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import {
  type LinkUser,
  login,
  logout,
  openLink,
  type SessionPolicy,
  signInAfterLink,
  useLink,
  type Viewer,
} from '../../../domain/console/accounts.js';
import { MIN_PASSWORD_LENGTH } from '../../../domain/console/passwords.js';
import type { ConsoleLink } from '../../../domain/console/ports.js';
import { ValidationFailed } from '../../../errors.js';
import { formOf, type PageContext } from '../../context.js';
import { type Html, html } from '../../html.js';
import { bare, orgPath } from '../../layout.js';
import type { ConsoleRouter } from '../../router.js';
import { cookieOptions } from '../../security.js';

interface Helpers {
  signedIn(req: FastifyRequest): Promise<Viewer | null>;
  pageContext(req: FastifyRequest, reply: FastifyReply, v: Viewer): Promise<PageContext>;
  policy: SessionPolicy;
  names: { session: string; csrf: string };
}

/** Only paths of this console: `next` never sends anyone elsewhere. */
function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])[\x21-\x7e]*$/.test(next) ? next : '/';
}

/** Login, logout, invitations, password resets and the account page. */
export function accountRoutes(app: FastifyInstance, router: ConsoleRouter, h: Helpers): void {
  const { deps } = router;
  const now = () => new Date(deps.clock.now());
  const s = deps.console;

  const guarded = { preHandler: app.csrfProtection };
  /**
   * A new session cookie, and no CSRF secret: the next page makes a new one,
   * so no token shown before this sign-in is accepted after it.
   */
  const startSession = (reply: FastifyReply, cookie: string) => {
    reply.setCookie(h.names.session, cookie, cookieOptions(s));
    reply.clearCookie(h.names.csrf, cookieOptions(s));
  };

  const loginForm = (
    token: string,
    next: string,
    email: string,
    problem?: Html | string,
    intro?: Html,
  ) =>
    bare(
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

  const send = (reply: FastifyReply, page: Html, status = 200) =>
    reply.code(status).type('text/html; charset=utf-8').send(page.text);

  app.get('/login', async (req, reply) => {
    const next = safeNext((req.query as { next?: string }).next);
    if (await h.signedIn(req)) return reply.redirect(next, 303);
    return send(reply, loginForm(reply.generateCsrf(), next, ''));
  });

  app.post('/login', guarded, async (req, reply) => {
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
      startSession(reply, result.cookie);
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

  router.userPage('/account', 'account', async (ctx) => ({
    title: 'Your account',
    body: html`<section class="card">
<h2>Signed in as ${ctx.viewer.user.email}</h2>
<p>${ctx.viewer.user.operator ? 'Operator: every organization.' : ''}</p>
${
  ctx.viewer.memberships.length > 0
    ? html`<ul>${ctx.viewer.memberships.map((m) => {
        const name = ctx.orgs.find((o) => o.id === m.orgId)?.name ?? m.orgId;
        return html`<li><a href="${orgPath(m.orgId, 'overview')}">${name}</a>: ${m.role}</li>`;
      })}</ul>`
    : ctx.viewer.user.operator
      ? ''
      : html`<p class="empty">You have no organization yet. Ask an operator to invite you to one.</p>`
}
<form method="post" action="/logout-everywhere">
  <input type="hidden" name="_csrf" value="${ctx.csrf}">
  <button type="submit" class="secondary">Log out everywhere</button>
  <span class="hint">Ends every session of yours, on every device.</span>
</form>
</section>`,
  }));

  const gone = bare(
    'Link not valid',
    html`<h1>This link cannot be used</h1><p>It has expired or was used already. Ask your operator for a new one.</p><p><a href="/login">Sign in</a></p>`,
  );
  const problemLine = (problem?: string) =>
    problem ? html`<p class="error" role="alert">${problem}</p>` : '';

  // A reset link: /reset/<token>.
  const resetForm = (token: string, secret: string, email: string, problem?: string) =>
    bare(
      'Choose a new password',
      html`<h1>Choose a new password</h1>
${problemLine(problem)}
<p>For <strong>${email}</strong>.</p>
<form method="post" action="/reset/${secret}" class="stack">
  <input type="hidden" name="_csrf" value="${token}">
  <label for="password">Password (at least ${MIN_PASSWORD_LENGTH} characters)</label>
  <input id="password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required>
  <button type="submit">Set password</button>
</form>`,
    );
  app.get('/reset/:secret', async (req, reply) => {
    const secret = (req.params as { secret: string }).secret;
    const link = await openLink(deps.repos, secret, now());
    if (link?.kind !== 'reset') return send(reply, gone, 404);
    return send(reply, resetForm(reply.generateCsrf(), secret, link.email));
  });
  app.post('/reset/:secret', guarded, async (req, reply) => {
    const body = formOf(req);
    const secret = (req.params as { secret: string }).secret;
    const link = await openLink(deps.repos, secret, now());
    if (link?.kind !== 'reset') return send(reply, gone, 404);
    try {
      const user = await useLink(
        deps.repos,
        secret,
        { password: body.get('password') ?? '' },
        now(),
      );
      if (!user || user === 'sign_in') return send(reply, gone, 404);
    } catch (err) {
      if (!(err instanceof ValidationFailed)) throw err;
      const msg = err.errors[0]?.msg.replace(/^Value error, /, '') ?? 'Not accepted.';
      return send(reply, resetForm(reply.generateCsrf(), secret, link.email, msg), 422);
    }
    return reply.redirect('/login', 303);
  });

  // An invitation link: /invite/<token>. The page says which organization and
  // role it gives before anything is accepted. A new person chooses a
  // password; a person with an account accepts signed in as that account (or
  // signs in on this page with its password), never by typing any password.
  const invitationPage = async (
    req: FastifyRequest,
    reply: FastifyReply,
    secret: string,
    link: ConsoleLink,
    problem?: string,
  ) => {
    const [account, viewer, org] = await Promise.all([
      deps.repos.console.findUserByEmail(deps.repos.db, link.email),
      h.signedIn(req),
      link.orgId ? deps.queries.findOrg(link.orgId) : null,
    ]);
    const what =
      link.role === 'operator'
        ? html`to be an <strong>operator</strong> of this service (every organization)`
        : html`to <strong>${org?.name ?? link.orgId ?? ''}</strong> as <strong>${link.role}</strong>`;
    const intro = html`<p>${link.createdBy.replace(/^console:/, '')} invites <strong>${link.email}</strong> ${what}.</p>`;
    let form: Html;
    if (account && viewer?.user.id === account.id) {
      form = html`<form method="post" action="/invite/${secret}" class="stack">
  <input type="hidden" name="_csrf" value="${reply.generateCsrf()}">
  <button type="submit">Accept</button>
</form>`;
    } else if (account) {
      form = html`${viewer ? html`<p>You are signed in as ${viewer.user.email}; this invitation is for another account.</p>` : ''}
<p>${link.email} has an account: sign in as that account to accept.</p>
<form method="post" action="/invite/${secret}" class="stack">
  <input type="hidden" name="_csrf" value="${reply.generateCsrf()}">
  <label for="password">Password of ${link.email}</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in and accept</button>
</form>`;
    } else {
      form = html`<form method="post" action="/invite/${secret}" class="stack">
  <input type="hidden" name="_csrf" value="${reply.generateCsrf()}">
  <label for="password">Choose a password (at least ${MIN_PASSWORD_LENGTH} characters)</label>
  <input id="password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required>
  <button type="submit">Accept</button>
</form>`;
    }
    return bare(
      'Accept your invitation',
      html`<h1>Accept your invitation</h1>
${problemLine(problem)}
${intro}
${form}`,
    );
  };

  app.get('/invite/:secret', async (req, reply) => {
    const secret = (req.params as { secret: string }).secret;
    const link = await openLink(deps.repos, secret, now());
    if (link?.kind !== 'invitation') return send(reply, gone, 404);
    return send(reply, await invitationPage(req, reply, secret, link));
  });

  app.post('/invite/:secret', guarded, async (req, reply) => {
    const body = formOf(req);
    const secret = (req.params as { secret: string }).secret;
    const link = await openLink(deps.repos, secret, now());
    if (link?.kind !== 'invitation') return send(reply, gone, 404);
    const [account, viewer] = await Promise.all([
      deps.repos.console.findUserByEmail(deps.repos.db, link.email),
      h.signedIn(req),
    ]);
    const again = async (status: number, problem: string) =>
      send(reply, await invitationPage(req, reply, secret, link, problem), status);
    let by: LinkUser;
    let cookie: string | null = null;
    if (account && viewer?.user.id === account.id) {
      by = { account: viewer.user };
    } else if (account) {
      // The account's password, checked as a sign-in is: throttled, audited.
      const result = await login(
        deps.repos,
        deps.limiter,
        h.policy,
        {
          email: link.email,
          password: (body.get('password') ?? '').slice(0, 1024),
          address: req.ip,
        },
        now(),
      );
      if (!result.ok) {
        if (result.reason === 'throttled') {
          reply.header('retry-after', String(result.retryAfterSeconds));
          return again(429, 'Too many attempts. Try again later.');
        }
        return again(401, 'Wrong password.');
      }
      cookie = result.cookie;
      by = { account: result.user };
    } else {
      by = { password: body.get('password') ?? '' };
    }
    let user: Awaited<ReturnType<typeof useLink>>;
    try {
      user = await useLink(deps.repos, secret, by, now());
    } catch (err) {
      if (!(err instanceof ValidationFailed)) throw err;
      return again(422, err.errors[0]?.msg.replace(/^Value error, /, '') ?? 'Not accepted.');
    }
    if (cookie) startSession(reply, cookie);
    if (!user) return send(reply, gone, 404);
    // Someone made the account between the page and the form: sign in as it.
    if (user === 'sign_in')
      return again(409, `${link.email} has an account now: sign in as it to accept.`);
    if (!cookie && viewer?.user.id !== user.id)
      startSession(reply, await signInAfterLink(deps.repos, h.policy, user, now()));
    return reply.redirect(link.orgId ? orgPath(link.orgId, 'overview') : '/', 303);
  });
}
