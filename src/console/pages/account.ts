import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  login,
  logout,
  openLink,
  type SessionPolicy,
  useLink,
  type Viewer,
} from '../../domain/console/accounts.js';
import { MIN_PASSWORD_LENGTH } from '../../domain/console/passwords.js';
import { ValidationFailed } from '../../errors.js';
import {
  checkCsrf,
  formOf,
  newToken,
  type PageContext,
  readCookies,
  setCookie,
} from '../context.js';
import { type Html, html } from '../html.js';
import { bare, orgPath } from '../layout.js';
import type { ConsoleRouter } from '../router.js';

interface Helpers {
  signedIn(req: FastifyRequest): Promise<Viewer | null>;
  pageContext(req: FastifyRequest, v: Viewer): Promise<PageContext>;
  policy: SessionPolicy;
  names: { session: string; preCsrf: string };
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

  /** Forms shown before anyone is signed in carry a token from a cookie of their own. */
  const preToken = (req: FastifyRequest, reply: FastifyReply): string => {
    const existing = readCookies(req)[h.names.preCsrf];
    if (existing && /^[A-Za-z0-9_-]{32}$/.test(existing)) return existing;
    const t = newToken();
    setCookie(reply, s, h.names.preCsrf, t);
    return t;
  };
  const checkPre = (req: FastifyRequest, form: URLSearchParams) =>
    checkCsrf(req, form, readCookies(req)[h.names.preCsrf] ?? '\0');

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
    return send(reply, loginForm(preToken(req, reply), next, ''));
  });

  app.post('/login', async (req, reply) => {
    const form = formOf(req);
    checkPre(req, form);
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
      setCookie(reply, s, h.names.session, result.cookie);
      return reply.redirect(next, 303);
    }
    const token = preToken(req, reply);
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

  for (const [path, everywhere] of [
    ['/logout', false],
    ['/logout-everywhere', true],
  ] as const) {
    app.post(path, async (req, reply) => {
      const viewer = await h.signedIn(req);
      if (viewer) {
        checkCsrf(req, formOf(req), viewer.session.csrfToken);
        await logout(deps.repos, viewer, everywhere, now());
      }
      setCookie(reply, s, h.names.session, '', 0);
      return reply.redirect('/login', 303);
    });
  }

  app.get('/', async (req, reply) => {
    const viewer = await h.signedIn(req);
    if (!viewer) return reply.redirect('/login', 303);
    const ctx = await h.pageContext(req, viewer);
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
  <input type="hidden" name="_csrf" value="${ctx.viewer.session.csrfToken}">
  <button type="submit" class="secondary">Log out everywhere</button>
  <span class="hint">Ends every session of yours, on every device.</span>
</form>
</section>`,
  }));

  // Invitation and reset links: /invite/<token>, /reset/<token>.
  for (const kind of ['invite', 'reset'] as const) {
    const title = kind === 'invite' ? 'Accept your invitation' : 'Choose a new password';
    const form = (token: string, secret: string, email: string, problem?: string) =>
      bare(
        title,
        html`<h1>${title}</h1>
${problem ? html`<p class="error" role="alert">${problem}</p>` : ''}
<p>For <strong>${email}</strong>. If you have an account already, your password stays as it is; enter it below.</p>
<form method="post" action="/${kind}/${secret}" class="stack">
  <input type="hidden" name="_csrf" value="${token}">
  <label for="password">Password (at least ${MIN_PASSWORD_LENGTH} characters)</label>
  <input id="password" name="password" type="password" autocomplete="new-password" minlength="${MIN_PASSWORD_LENGTH}" required>
  <button type="submit">${kind === 'invite' ? 'Accept' : 'Set password'}</button>
</form>`,
      );
    const gone = bare(
      'Link not valid',
      html`<h1>This link cannot be used</h1><p>It has expired or was used already. Ask your operator for a new one.</p><p><a href="/login">Sign in</a></p>`,
    );
    app.get(`/${kind}/:secret`, async (req, reply) => {
      const secret = (req.params as { secret: string }).secret;
      const link = await openLink(deps.repos, secret, now());
      const wanted = kind === 'invite' ? 'invitation' : 'reset';
      if (!link || link.kind !== wanted) return send(reply, gone, 404);
      return send(reply, form(preToken(req, reply), secret, link.email));
    });
    app.post(`/${kind}/:secret`, async (req, reply) => {
      const body = formOf(req);
      checkPre(req, body);
      const secret = (req.params as { secret: string }).secret;
      const link = await openLink(deps.repos, secret, now());
      const wanted = kind === 'invite' ? 'invitation' : 'reset';
      if (!link || link.kind !== wanted) return send(reply, gone, 404);
      try {
        const user = await useLink(deps.repos, secret, body.get('password') ?? '', now());
        if (!user) return send(reply, gone, 404);
      } catch (err) {
        if (!(err instanceof ValidationFailed)) throw err;
        const msg = err.errors[0]?.msg.replace(/^Value error, /, '') ?? 'Not accepted.';
        return send(reply, form(preToken(req, reply), secret, link.email, msg), 422);
      }
      // Where the person now stands, and the sign-in that takes them there.
      const org = link.orgId ? await deps.queries.findOrg(link.orgId) : null;
      const next = org
        ? orgPath(org.id, 'overview')
        : link.role === 'operator'
          ? '/operator/orgs'
          : '/';
      const intro =
        kind === 'reset'
          ? html`<h1>Password changed</h1><p role="status">Your new password is set. Sign in with it.</p>`
          : html`<h1>Invitation accepted</h1><p role="status">${
              org
                ? html`You are now ${link.role === 'manager' ? 'a manager' : 'a viewer'} of <strong>${org.name}</strong>.`
                : 'You are now an operator of this service.'
            } Sign in to open ${org ? 'its console' : 'the console'}.</p>`;
      return send(reply, loginForm(preToken(req, reply), next, link.email, undefined, intro));
    });
  }
}
