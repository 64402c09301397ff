import {
  getOrg,
  issueKey,
  revokeKey,
  rotateKey,
  updateOrg,
} from '../../../domain/admin/orgs-keys.js';
import { AppError, errors } from '../../../errors.js';
import { type ConsoleDeps, type PageContext, requireOperator } from '../../context.js';
import { type Html, html } from '../../html.js';
import { makeLink, shownOnce } from '../../links.js';
import type { ActionHandler, ConsoleRouter, PageResult } from '../../router.js';
import { type Column, table, timeColumn } from '../../table.js';
import { accessTables } from '../people/route.js';
import { adminOf, csrfField } from '../shared/admin.js';

type KeyRow = Awaited<ReturnType<ConsoleDeps['queries']['config']['listKeys']>>[number];

/** The organization's keys, with rotate and revoke for an active one. */
function keyColumnsOf(ctx: PageContext, zone: string, now: Date): Column<KeyRow>[] {
  const status = (k: KeyRow) =>
    k.revokedAt ? 'revoked' : k.expiresAt && k.expiresAt <= now ? 'expired' : 'active';
  return [
    { label: 'Key', value: (k) => (k.keyPrefix.endsWith('…') ? k.keyPrefix : `${k.keyPrefix}…`) },
    { label: 'Label', value: (k) => k.label ?? '' },
    { label: 'Scopes', value: (k) => k.scopes.join(' ') },
    { label: 'Status', value: status },
    timeColumn('Expires', (k) => k.expiresAt, zone),
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
}

/** One organization: tracking, its keys, its people and invitations. */
export async function orgDetail(
  router: ConsoleRouter,
  ctx: PageContext,
  orgId: string,
  extra: { notice?: string | null; secret?: Html },
): Promise<PageResult> {
  requireOperator(ctx);
  const org = await getOrg(router.deps.repos, orgId).catch(() => {
    throw new AppError('Not Found');
  });
  const now = new Date(router.deps.clock.now());
  const [keys, members, links] = await Promise.all([
    router.deps.queries.config.listKeys(org.id, { limit: 200, now }),
    router.deps.queries.console.orgMembers(org.id),
    router.deps.repos.console.listLinks(router.deps.repos.db, org.id, 50),
  ]);
  const keyColumns = keyColumnsOf(ctx, org.timeZone, now);
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
}

export const trackingAction =
  (router: ConsoleRouter): ActionHandler<PageContext> =>
  async (ctx, form, p, req) => {
    requireOperator(ctx);
    const on = form.get('enabled') === '1';
    await updateOrg(adminOf(router.deps, ctx, req.id), p.org!, { tracking_enabled: on });
    return `/operator/orgs/${encodeURIComponent(p.org!)}?notice=${on ? 'tracking_on' : 'tracking_off'}`;
  };

export const issueKeyAction =
  (router: ConsoleRouter): ActionHandler<PageContext> =>
  async (ctx, form, p, req) => {
    requireOperator(ctx);
    const scopes = form.getAll('scopes').filter((s) => s === 'enroll' || s === 'execute');
    if (scopes.length === 0)
      throw errors.field(['body', 'scopes'], 'choose at least one scope', []);
    const label = (form.get('label') ?? '').trim().slice(0, 200);
    const key = await issueKey(adminOf(router.deps, ctx, req.id), p.org!, {
      scopes: [...new Set(scopes)] as ('enroll' | 'execute')[],
      ...(label ? { label } : {}),
    });
    return orgDetail(router, ctx, p.org!, {
      secret: shownOnce('New API key', key.api_key, 'give it to the organization’s developer.'),
    });
  };

/** The organization a key belongs to; an unknown key is a 404. */
async function keyOrg(router: ConsoleRouter, keyId: string) {
  const k = await router.deps.queries.config.findKey(keyId);
  if (!k) throw new AppError('Not Found');
  return k.orgId;
}

export const revokeAction =
  (router: ConsoleRouter): ActionHandler<PageContext> =>
  async (ctx, _form, p, req) => {
    requireOperator(ctx);
    const orgId = await keyOrg(router, p.key!);
    await revokeKey(adminOf(router.deps, ctx, req.id), p.key!);
    return `/operator/orgs/${encodeURIComponent(orgId)}?notice=key_revoked`;
  };
export const rotateAction =
  (router: ConsoleRouter): ActionHandler<PageContext> =>
  async (ctx, form, p, req) => {
    requireOperator(ctx);
    const orgId = await keyOrg(router, p.key!);
    const grace = Math.min(Math.max(Number(form.get('grace_seconds') ?? 0) || 0, 0), 86_400);
    const key = await rotateKey(adminOf(router.deps, ctx, req.id), p.key!, grace);
    return orgDetail(router, ctx, orgId, {
      secret: shownOnce(
        'Replacement API key',
        key.api_key,
        `the old key keeps working for ${Math.round(grace / 60)} minutes.`,
      ),
    });
  };

export const inviteAction =
  (router: ConsoleRouter): ActionHandler<PageContext> =>
  async (ctx, form, p, req) => {
    requireOperator(ctx);
    const org = await getOrg(router.deps.repos, p.org!).catch(() => {
      throw new AppError('Not Found');
    });
    const role = form.get('role') === 'viewer' ? 'viewer' : 'manager';
    const secret = await makeLink(
      router.deps,
      ctx,
      { kind: 'invitation', email: (form.get('email') ?? '').trim(), role, orgId: org.id },
      req.id,
    );
    return orgDetail(router, ctx, org.id, { secret });
  };
