import type { AdminContext } from '../../../domain/admin/orgs-keys.js';
import { actorOf } from '../../../domain/console/accounts.js';
import type { ConsoleDeps, PageContext } from '../../context.js';
import { html } from '../../html.js';

/** The admin domain's context for a change made in the console, by the signed-in person. */
export const adminOf = (
  deps: ConsoleDeps,
  ctx: PageContext,
  requestId: string,
): AdminContext<typeof deps.repos> => ({
  repos: deps.repos,
  keyring: deps.keyring,
  now: () => new Date(deps.clock.now()),
  requestId,
  actor: actorOf(ctx.viewer.user),
});

/** The hidden field every form of a page posts its CSRF token in. */
export const csrfField = (ctx: PageContext) =>
  html`<input type="hidden" name="_csrf" value="${ctx.csrf}">`;
