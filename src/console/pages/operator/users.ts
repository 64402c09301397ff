import type { ConsoleLink } from '../../../domain/console/ports.js';
import { type PageContext, requireOperator } from '../../context.js';
import { type Html, html } from '../../html.js';
import { makeLink } from '../../links.js';
import type { ActionHandler, ConsoleRouter, PageResult } from '../../router.js';
import { type Column, table, timeColumn } from '../../table.js';
import { csrfField } from '../shared/admin.js';

/** Every user and every invitation and reset link, with the forms that make links. */
export async function usersPage(
  router: ConsoleRouter,
  ctx: PageContext,
  secret?: Html,
): Promise<PageResult> {
  requireOperator(ctx);
  const now = new Date(router.deps.clock.now());
  const [users, links] = await Promise.all([
    router.deps.repos.console.listUsers(router.deps.repos.db),
    router.deps.repos.console.listLinks(router.deps.repos.db, null, 100),
  ]);
  type User = (typeof users)[number];
  const emailOf = new Map(users.map((u) => [u.id, u.email]));
  const userColumns: Column<User>[] = [
    { label: 'Email', value: (u) => u.email },
    { label: 'Operator', value: (u) => (u.operator ? 'yes' : 'no') },
    timeColumn('Since', (u) => u.createdAt, 'UTC'),
  ];
  const linkColumns: Column<ConsoleLink>[] = [
    { label: 'Kind', value: (l) => l.kind },
    { label: 'Email', value: (l) => l.email, text: true },
    { label: 'Role', value: (l) => (l.kind === 'reset' ? '' : l.role) },
    { label: 'Organization', value: (l) => l.orgId ?? '', long: true },
    { label: 'Made by', value: (l) => l.createdBy, long: true },
    {
      label: 'State',
      value: (l) => (l.usedAt ? 'used' : l.expiresAt <= now ? 'expired' : 'open'),
    },
    {
      label: 'Used by',
      value: (l) => (l.usedBy ? (emailOf.get(l.usedBy) ?? l.usedBy) : ''),
      text: true,
    },
  ];
  return {
    title: 'Users and invitations',
    tables: {
      users: { columns: userColumns, rows: users },
      links: { columns: linkColumns, rows: links },
    },
    body: html`${secret ?? ''}
<div class="cards">
<section class="card"><h2>Invite an operator</h2>
<form method="post" action="/operator/invitations" class="stack">${csrfField(ctx)}
<label for="op-email">Email</label><input id="op-email" name="email" type="email" required maxlength="320">
<button type="submit">Make invitation link</button></form>
<p class="hint">Managers and viewers are invited from their organization’s page.</p></section>
<section class="card"><h2>Password reset</h2>
<form method="post" action="/operator/reset-links" class="stack">${csrfField(ctx)}
<label for="reset-email">Email of an existing user</label><input id="reset-email" name="email" type="email" required maxlength="320">
<button type="submit">Make reset link</button></form>
<p class="hint">Using it sets a new password and ends every session of that person.</p></section>
</div>
${table({ caption: 'Users', columns: userColumns, rows: users, stacked: true, empty: 'No users.' })}
${table({ caption: 'Invitation and reset links', columns: linkColumns, rows: links, stacked: true, empty: 'No link made yet.' })}`,
  };
}

/** A link for the email in the form: an operator's invitation, or a password reset. */
const linkAction =
  (router: ConsoleRouter, kind: 'invitation' | 'reset'): ActionHandler<PageContext> =>
  async (ctx, form, _p, req) => {
    requireOperator(ctx);
    const email = (form.get('email') ?? '').trim();
    const role = kind === 'invitation' ? 'operator' : 'viewer';
    const link = await makeLink(router.deps, ctx, { kind, email, role, orgId: null }, req.id);
    return usersPage(router, ctx, link);
  };

export const operatorInviteAction = (router: ConsoleRouter) => linkAction(router, 'invitation');
export const resetLinkAction = (router: ConsoleRouter) => linkAction(router, 'reset');
