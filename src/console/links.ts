import { actorOf, createLink, sessionPolicy } from '../domain/console/accounts.js';
import type { ConsoleLink, LinkRole } from '../domain/console/ports.js';
import { errors } from '../errors.js';
import type { ConsoleDeps, PageContext } from './context.js';
import { type Html, html } from './html.js';

/** A secret shown once: an API key or a one-time link. */
export function shownOnce(label: string, value: string, what: string): Html {
  return html`<section class="card" aria-live="polite"><h2>${label}</h2>
<p>Copy it now: ${what} It is not stored and will not be shown again.</p>
<p class="secret" id="secret">${value}</p>
<button type="button" class="secondary" data-copy="secret" hidden>Copy</button>
</section>`;
}

export interface LinkInput {
  kind: ConsoleLink['kind'];
  email: string;
  role: LinkRole;
  orgId: string | null;
}

/**
 * Makes an invitation or reset link with the signed-in person as the audit
 * line's actor, and the card that shows it once. Who may ask for which role
 * is the caller's check.
 */
export async function makeLink(
  deps: ConsoleDeps,
  ctx: PageContext,
  input: LinkInput,
  requestId: string,
): Promise<Html> {
  if (!/^[^@\s]+@[^@\s]+$/.test(input.email) || input.email.length > 320)
    throw errors.field(['body', 'email'], 'enter an email address', input.email);
  const { token } = await createLink(
    deps.repos,
    sessionPolicy(deps.console),
    input,
    actorOf(ctx.viewer.user),
    new Date(deps.clock.now()),
    requestId,
  );
  const url = `${deps.console.publicUrl}/${input.kind === 'invitation' ? 'invite' : 'reset'}/${token}`;
  return shownOnce(
    input.kind === 'invitation' ? 'Invitation link' : 'Password reset link',
    url,
    `send it to ${input.email}; it expires in ${deps.console.linkHours} hours and works once.`,
  );
}
