import type { FastifyInstance } from 'fastify';
import { html } from '../../html.js';
import { orgPath } from '../../layout.js';
import type { ConsoleRouter } from '../../router.js';
import type { Viewers } from '../../viewers.js';
import { invitationRoutes } from './invitation.js';
import { resetRoutes } from './reset.js';
import type { AccountEnv } from './shared.js';
import { homeRoutes, logoutRoutes, signInRoutes } from './sign-in.js';

/** Login, logout, invitations, password resets and the account page. */
export function accountRoutes(app: FastifyInstance, router: ConsoleRouter, h: Viewers): void {
  const { deps } = router;
  const env: AccountEnv = {
    app,
    router,
    h,
    deps,
    s: deps.console,
    now: () => new Date(deps.clock.now()),
  };
  signInRoutes(env);
  logoutRoutes(env);
  homeRoutes(env);
  resetRoutes(env);
  invitationRoutes(env);
  accountPage(router);
}

/** Who is signed in, their organizations and roles, and "Log out everywhere". */
function accountPage(router: ConsoleRouter): void {
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
}
