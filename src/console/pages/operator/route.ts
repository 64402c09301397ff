import {
  type AdminContext,
  createOrg,
  getOrg,
  issueKey,
  revokeKey,
  rotateKey,
  updateOrg,
} from '../../../domain/admin/orgs-keys.js';
import { actorOf } from '../../../domain/console/accounts.js';
import type { ConsoleLink } from '../../../domain/console/ports.js';
import { AppError, errors } from '../../../errors.js';
import { type PageContext, requireOperator } from '../../context.js';
import { type Html, html } from '../../html.js';
import { type Column, table, timeColumn } from '../../layout.js';
import { makeLink, shownOnce } from '../../links.js';
import { type ConsoleRouter, own, type PageResult } from '../../router.js';
import { accessTables } from '../people/route.js';

const NOTICES: Record<string, string> = {
  org_created: 'Organization created. Issue it a key and invite its people below.',
  tracking_on: 'Tracking is on: its keys can create sessions.',
  tracking_off: 'Tracking is off: its keys get 403 tracking_disabled.',
  key_revoked: 'Key revoked. It stops working within a second.',
};

const csrfField = (ctx: PageContext) =>
  html`<input type="hidden" name="_csrf" value="${ctx.csrf}">`;

export function operatorPages(router: ConsoleRouter): void {
  const { deps } = router;
  const { config, console: reads } = deps.queries;
  const admin = (ctx: PageContext, requestId: string): AdminContext<typeof deps.repos> => ({
    repos: deps.repos,
    keyring: deps.keyring,
    now: () => new Date(deps.clock.now()),
    requestId,
    actor: actorOf(ctx.viewer.user),
  });

  router.userPage('/operator/orgs', 'operator-orgs', async (ctx, q): Promise<PageResult> => {
    requireOperator(ctx);
    const orgs = await config.listOrgs({ limit: 500 });
    type OrgRow = (typeof orgs)[number];
    const columns: Column<OrgRow>[] = [
      {
        label: 'Name',
        value: (o) => o.name,
        cell: (o) => html`<a href="/operator/orgs/${o.id}">${o.name}</a>`,
      },
      { label: 'Organization id', value: (o) => o.id },
      { label: 'Tracking', value: (o) => (o.trackingEnabled ? 'on' : 'off') },
      timeColumn('Created', (o) => o.createdAt, 'UTC'),
    ];
    return {
      title: 'Organizations and keys',
      notice: own(NOTICES, q.notice) ?? null,
      tables: { orgs: { columns, rows: orgs } },
      body: html`<section class="card"><h2>New organization</h2>
<form method="post" action="/operator/orgs" class="grid-form">
  ${csrfField(ctx)}
  <label>Name <input name="name" required maxlength="200" autocomplete="organization"></label>
  <label><span><input type="checkbox" name="tracking_enabled" value="1"> Tracking on (its keys may create sessions)</span></label>
  <div><button type="submit">Create organization</button></div>
</form></section>
${table({
  caption: 'Organizations',
  columns,
  rows: orgs,
  stacked: true,
  empty: 'No organization yet. Create the first one above, then invite its manager.',
})}`,
    };
  });

  router.userAction('/operator/orgs', async (ctx, form, _p, req) => {
    requireOperator(ctx);
    const o = await createOrg(admin(ctx, req.id), {
      name: (form.get('name') ?? '').trim().slice(0, 200) || 'Unnamed',
      tracking_enabled: form.get('tracking_enabled') === '1',
    });
    return `/operator/orgs/${encodeURIComponent(o.org_id)}?notice=org_created`;
  });

  const orgDetail = async (
    ctx: PageContext,
    orgId: string,
    extra: { notice?: string | null; secret?: Html },
  ): Promise<PageResult> => {
    requireOperator(ctx);
    const org = await getOrg(deps.repos, orgId).catch(() => {
      throw new AppError('Not Found');
    });
    const now = new Date(deps.clock.now());
    const [keys, members, links] = await Promise.all([
      config.listKeys(org.id, { limit: 200, now }),
      reads.orgMembers(org.id),
      deps.repos.console.listLinks(deps.repos.db, org.id, 50),
    ]);
    type KeyRow = (typeof keys)[number];
    const status = (k: KeyRow) =>
      k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt <= now ? 'expired' : 'active';
    const keyColumns: Column<KeyRow>[] = [
      { label: 'Key', value: (k) => (k.keyPrefix.endsWith('…') ? k.keyPrefix : `${k.keyPrefix}…`) },
      { label: 'Label', value: (k) => k.label ?? '' },
      { label: 'Scopes', value: (k) => k.scopes.join(' ') },
      { label: 'Status', value: status },
      timeColumn('Expires', (k) => k.expiresAt, org.timeZone),
      {
        label: 'Actions',
        value: () => '',
        cell: (k) =>
          status(k) === 'active'
            ? html`<div class="actions"><form method="post" action="/operator/keys/${k.id}/rotate" class="inline">${csrfField(ctx)}<input type="hidden" name="grace_seconds" value="3600"><button type="submit" class="secondary" aria-label="Rotate key ${k.keyPrefix}">Rotate (1 h grace)</button></form>
<form method="post" action="/operator/keys/${k.id}/revoke" class="inline">${csrfField(ctx)}<button type="submit" class="danger" data-confirm="Revoke this key now? Calls with it fail at once." aria-label="Revoke key ${k.keyPrefix}">Revoke</button></form></div>`
            : '',
      },
    ];
    const access = accessTables(members, links, org.timeZone, now);
    return {
      title: org.name,
      shows: org.id,
      notice: extra.notice ?? null,
      tables: {
        keys: { columns: keyColumns, rows: keys },
        ...access,
      },
      body: html`<p><a href="/operator/orgs">← All organizations</a> · <a href="/orgs/${org.id}/overview">Open its console</a></p>
${extra.secret ?? ''}
<section class="card"><h2>Tracking</h2>
<p>Tracking is <strong>${org.trackingEnabled ? 'on' : 'off'}</strong>. ${org.trackingEnabled ? 'Its keys can create sessions.' : 'Its keys get 403 tracking_disabled until it is on.'}</p>
<form method="post" action="/operator/orgs/${org.id}/tracking">${csrfField(ctx)}
<input type="hidden" name="enabled" value="${org.trackingEnabled ? '0' : '1'}">
<button type="submit" class="${org.trackingEnabled ? 'danger' : ''}">${org.trackingEnabled ? 'Switch tracking off' : 'Switch tracking on'}</button></form>
</section>
<section class="card"><h2>Issue an API key</h2>
<form method="post" action="/operator/orgs/${org.id}/keys" class="grid-form">${csrfField(ctx)}
<label>Label <input name="label" maxlength="200"></label>
<fieldset><legend>Scopes</legend>
<label><span><input type="checkbox" name="scopes" value="enroll" checked> enroll (DNI sessions from the website)</span></label>
<label><span><input type="checkbox" name="scopes" value="execute"> execute (buyer reports and outbound touches)</span></label>
</fieldset>
<div><button type="submit">Issue key</button></div>
</form></section>
${table({ caption: 'API keys', columns: keyColumns, rows: keys, stacked: true, empty: 'No key yet. Issue one above; it is shown once.' })}
<section class="card"><h2>Invite someone</h2>
<form method="post" action="/operator/orgs/${org.id}/invitations" class="grid-form">${csrfField(ctx)}
<label>Email <input name="email" type="email" required maxlength="320"></label>
<label>Role <select name="role"><option value="manager">manager: also campaigns, numbers, webhooks</option><option value="viewer">viewer: read only</option></select></label>
<div><button type="submit">Make invitation link</button></div>
</form></section>
${table({ caption: 'People', ...access.members, stacked: true, empty: 'Nobody yet. Invite the first manager above.' })}
${table({ caption: 'Invitations', ...access.invitations, stacked: true, empty: 'No invitation made yet.' })}`,
    };
  };

  router.userPage('/operator/orgs/:org', 'operator-orgs', async (ctx, q, p) =>
    orgDetail(ctx, p.org!, { notice: own(NOTICES, q.notice) ?? null }),
  );

  router.userAction('/operator/orgs/:org/tracking', async (ctx, form, p, req) => {
    requireOperator(ctx);
    const on = form.get('enabled') === '1';
    await updateOrg(admin(ctx, req.id), p.org!, { tracking_enabled: on });
    return `/operator/orgs/${encodeURIComponent(p.org!)}?notice=${on ? 'tracking_on' : 'tracking_off'}`;
  });

  router.userAction('/operator/orgs/:org/keys', async (ctx, form, p, req) => {
    requireOperator(ctx);
    const scopes = form.getAll('scopes').filter((s) => s === 'enroll' || s === 'execute');
    if (scopes.length === 0)
      throw errors.field(['body', 'scopes'], 'choose at least one scope', []);
    const label = (form.get('label') ?? '').trim().slice(0, 200);
    const key = await issueKey(admin(ctx, req.id), p.org!, {
      scopes: [...new Set(scopes)] as ('enroll' | 'execute')[],
      ...(label ? { label } : {}),
    });
    return orgDetail(ctx, p.org!, {
      secret: shownOnce('New API key', key.api_key, 'give it to the organization’s developer.'),
    });
  });

  const keyOrg = async (keyId: string) => {
    const k = await config.findKey(keyId);
    if (!k) throw new AppError('Not Found');
    return k.orgId;
  };
  router.userAction('/operator/keys/:key/revoke', async (ctx, _form, p, req) => {
    requireOperator(ctx);
    const orgId = await keyOrg(p.key!);
    await revokeKey(admin(ctx, req.id), p.key!);
    return `/operator/orgs/${encodeURIComponent(orgId)}?notice=key_revoked`;
  });
  router.userAction('/operator/keys/:key/rotate', async (ctx, form, p, req) => {
    requireOperator(ctx);
    const orgId = await keyOrg(p.key!);
    const grace = Math.min(Math.max(Number(form.get('grace_seconds') ?? 0) || 0, 0), 86_400);
    const key = await rotateKey(admin(ctx, req.id), p.key!, grace);
    return orgDetail(ctx, orgId, {
      secret: shownOnce(
        'Replacement API key',
        key.api_key,
        `the old key keeps working for ${Math.round(grace / 60)} minutes.`,
      ),
    });
  });

  router.userAction('/operator/orgs/:org/invitations', async (ctx, form, p, req) => {
    requireOperator(ctx);
    const org = await getOrg(deps.repos, p.org!).catch(() => {
      throw new AppError('Not Found');
    });
    const role = form.get('role') === 'viewer' ? 'viewer' : 'manager';
    const secret = await makeLink(
      deps,
      ctx,
      { kind: 'invitation', email: (form.get('email') ?? '').trim(), role, orgId: org.id },
      req.id,
    );
    return orgDetail(ctx, org.id, { secret });
  });

  const usersPage = async (ctx: PageContext, secret?: Html): Promise<PageResult> => {
    requireOperator(ctx);
    const now = new Date(deps.clock.now());
    const [users, links] = await Promise.all([
      deps.repos.console.listUsers(deps.repos.db),
      deps.repos.console.listLinks(deps.repos.db, null, 100),
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
      { label: 'Email', value: (l) => l.email },
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
  };

  router.userPage('/operator/users', 'operator-users', async (ctx) => usersPage(ctx));
  router.userAction('/operator/invitations', async (ctx, form, _p, req) => {
    requireOperator(ctx);
    const email = (form.get('email') ?? '').trim();
    return usersPage(
      ctx,
      await makeLink(
        deps,
        ctx,
        { kind: 'invitation', email, role: 'operator', orgId: null },
        req.id,
      ),
    );
  });
  router.userAction('/operator/reset-links', async (ctx, form, _p, req) => {
    requireOperator(ctx);
    const email = (form.get('email') ?? '').trim();
    return usersPage(
      ctx,
      await makeLink(deps, ctx, { kind: 'reset', email, role: 'viewer', orgId: null }, req.id),
    );
  });
}
