import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  type LinkUser,
  login,
  openLink,
  signInAfterLink,
  useLink,
} from '../../../domain/console/accounts.js';
import { MIN_PASSWORD_LENGTH } from '../../../domain/console/passwords.js';
import type { ConsoleLink } from '../../../domain/console/ports.js';
import { ValidationFailed } from '../../../errors.js';
import { formOf } from '../../context.js';
import { type Html, html } from '../../html.js';
import { bare, orgPath } from '../../layout.js';
import { type AccountEnv, gone, guarded, problemLine, send, startSession } from './shared.js';

// An invitation link: /invite/<token>. The page says which organization and
// role it gives before anything is accepted. A new person chooses a
// password; a person with an account accepts signed in as that account (or
// signs in on this page with its password), never by typing any password.
async function invitationPage(
  env: AccountEnv,
  req: FastifyRequest,
  reply: FastifyReply,
  secret: string,
  link: ConsoleLink,
  problem?: string,
): Promise<Html> {
  const { deps, h } = env;
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
}

/** Accepting: signed in as the invited account, by its password, or a new account's password. */
async function accept(env: AccountEnv, req: FastifyRequest, reply: FastifyReply) {
  const { deps, h, now } = env;
  const body = formOf(req);
  const secret = (req.params as { secret: string }).secret;
  const link = await openLink(deps.repos, secret, now());
  if (link?.kind !== 'invitation') return send(reply, gone, 404);
  const [account, viewer] = await Promise.all([
    deps.repos.console.findUserByEmail(deps.repos.db, link.email),
    h.signedIn(req),
  ]);
  const again = async (status: number, problem: string) =>
    send(reply, await invitationPage(env, req, reply, secret, link, problem), status);
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
  if (cookie) startSession(env, reply, cookie);
  if (!user) return send(reply, gone, 404);
  // Someone made the account between the page and the form: sign in as it.
  if (user === 'sign_in')
    return again(409, `${link.email} has an account now: sign in as it to accept.`);
  if (!cookie && viewer?.user.id !== user.id)
    startSession(env, reply, await signInAfterLink(deps.repos, h.policy, user, now()));
  return reply.redirect(link.orgId ? orgPath(link.orgId, 'overview') : '/', 303);
}

export function invitationRoutes(env: AccountEnv): void {
  const { app, deps, now } = env;
  app.get('/invite/:secret', async (req, reply) => {
    const secret = (req.params as { secret: string }).secret;
    const link = await openLink(deps.repos, secret, now());
    if (link?.kind !== 'invitation') return send(reply, gone, 404);
    return send(reply, await invitationPage(env, req, reply, secret, link));
  });
  app.post('/invite/:secret', guarded(env), async (req, reply) => accept(env, req, reply));
}
