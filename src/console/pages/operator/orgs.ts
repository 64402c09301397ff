import { createOrg } from '../../../domain/admin/orgs-keys.js';
import { type PageContext, requireOperator } from '../../context.js';
import { html } from '../../html.js';
import { type ActionHandler, type ConsoleRouter, own, type PageHandler } from '../../router.js';
import { type Column, table, timeColumn } from '../../table.js';
import { adminOf, csrfField } from '../shared/admin.js';
import { NOTICES } from './notices.js';

/** Every organization, and the form for a new one. */
export const orgsPage =
  (router: ConsoleRouter): PageHandler<PageContext> =>
  async (ctx, q) => {
    requireOperator(ctx);
    const orgs = await router.deps.queries.config.listOrgs({ limit: 500 });
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
  };

export const createOrgAction =
  (router: ConsoleRouter): ActionHandler<PageContext> =>
  async (ctx, form, _p, req) => {
    requireOperator(ctx);
    const o = await createOrg(adminOf(router.deps, ctx, req.id), {
      name: (form.get('name') ?? '').trim().slice(0, 200) || 'Unnamed',
      tracking_enabled: form.get('tracking_enabled') === '1',
    });
    return `/operator/orgs/${encodeURIComponent(o.org_id)}?notice=org_created`;
  };
