import type { OrgMemberRow } from '../../../domain/admin/queries.js';
import type { ConsoleLink, OrgRole } from '../../../domain/console/ports.js';
import { errors } from '../../../errors.js';
import type { OrgContext } from '../../context.js';
import { type Html, html } from '../../html.js';
import { orgPath } from '../../layout.js';
import { makeLink } from '../../links.js';
import type { ConsoleRouter, PageResult, TableData } from '../../router.js';
import { table, timeColumn } from '../../table.js';

/**
 * The role an invitation made inside an organization may carry. Contract §9
 * is silent on who invites whom; the console's answer (docs/console.md):
 * managers and operators invite managers and viewers of that organization,
 * nobody invites an operator from here (that is /operator/users, operators
 * only), and viewers invite nobody (orgAction's 403).
 */
export function invitedRole(raw: string | null): OrgRole {
  if (raw === 'manager' || raw === 'viewer') return raw;
  if (raw === 'operator') throw errors.forbidden();
  throw errors.field(['body', 'role'], 'choose manager or viewer', raw);
}

/**
 * Who has access to an organization, and the invitations made for it, with times in
 * the organization's zone: on its People page and on the operator's page of it alike.
 */
export function accessTables(
  members: OrgMemberRow[],
  links: ConsoleLink[],
  zone: string,
  now: Date,
): { members: TableData<OrgMemberRow>; invitations: TableData<ConsoleLink> } {
  return {
    members: {
      columns: [
        { label: 'Email', value: (m) => m.email, text: true },
        { label: 'Role', value: (m) => m.role },
      ],
      rows: members,
    },
    invitations: {
      columns: [
        { label: 'Email', value: (l) => l.email, text: true },
        { label: 'Role', value: (l) => l.role },
        timeColumn('Made', (l) => l.createdAt, zone),
        {
          label: 'State',
          // Only the invited email's own account can accept, so it is the one named.
          value: (l) =>
            l.usedAt ? `accepted by ${l.email}` : l.expiresAt <= now ? 'expired' : 'open',
          text: true,
        },
      ],
      rows: links,
    },
  };
}

/** People of one organization and its invitations; managers invite from here. */
export function peoplePages(router: ConsoleRouter): void {
  const { deps } = router;

  const peoplePage = async (ctx: OrgContext, secret?: Html): Promise<PageResult> => {
    const [members, links] = await Promise.all([
      deps.queries.console.orgMembers(ctx.org.id),
      deps.repos.console.listLinks(deps.repos.db, ctx.org.id, 50),
    ]);
    const access = accessTables(members, links, ctx.zone, ctx.now);
    const manager = ctx.role !== 'viewer';
    return {
      title: 'People',
      range: false,
      tables: access,
      body: html`${secret ?? ''}
${
  manager
    ? html`<section class="card"><h2>Invite someone to ${ctx.org.name}</h2>
<form method="post" action="${orgPath(ctx.org.id, 'people/invitations')}" class="grid-form">
<input type="hidden" name="_csrf" value="${ctx.csrf}">
<label>Email <input name="email" type="email" required maxlength="320" autocomplete="off"></label>
<label>Role <select name="role"><option value="viewer">viewer: read only</option><option value="manager">manager: also campaigns, numbers, webhooks</option></select></label>
<div><button type="submit">Make invitation link</button></div>
</form>
<p class="hint">The link works once and expires in ${deps.console.linkHours} hours. Operators are invited by an operator.</p></section>`
    : html`<p class="hint">Viewers see who has access. A manager of this organization invites people.</p>`
}
${table({ caption: 'People', ...access.members, stacked: true, empty: manager ? 'Nobody yet. Invite the first person above.' : 'Nobody yet.' })}
${table({ caption: 'Invitations', ...access.invitations, stacked: true, empty: 'No invitation made yet.' })}`,
    };
  };

  router.orgPage('/people', 'people', async (ctx) => peoplePage(ctx));

  router.orgAction('/people/invitations', async (ctx, form, _p, req) => {
    const role = invitedRole(form.get('role'));
    const email = (form.get('email') ?? '').trim();
    const secret = await makeLink(
      deps,
      ctx,
      { kind: 'invitation', email, role, orgId: ctx.org.id },
      req.id,
    );
    return { ...(await peoplePage(ctx, secret)), current: 'people' };
  });
}
