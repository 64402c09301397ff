import { openLink, useLink } from '../../../domain/console/accounts.js';
import { MIN_PASSWORD_LENGTH } from '../../../domain/console/passwords.js';
import { ValidationFailed } from '../../../errors.js';
import { formOf } from '../../context.js';
import { html } from '../../html.js';
import { bare } from '../../layout.js';
import { type AccountEnv, gone, guarded, problemLine, send } from './shared.js';

/** The form of a reset link: /reset/<token>. */
function resetForm(token: string, secret: string, email: string, problem?: string) {
  return bare(
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
}

/** A reset link: choosing a new password ends every session of the account. */
export function resetRoutes(env: AccountEnv): void {
  const { app, deps, now } = env;
  app.get('/reset/:secret', async (req, reply) => {
    const secret = (req.params as { secret: string }).secret;
    const link = await openLink(deps.repos, secret, now());
    if (link?.kind !== 'reset') return send(reply, gone, 404);
    return send(reply, resetForm(reply.generateCsrf(), secret, link.email));
  });
  app.post('/reset/:secret', guarded(env), async (req, reply) => {
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
}
