import type { OrgContext, PageContext } from './context.js';
import { type Html, html } from './html.js';

export const ORG_PAGES = [
  ['overview', 'Overview'],
  ['calls', 'Calls'],
  ['campaigns', 'Campaigns and pools'],
  ['buyers', 'Buyers'],
  ['compliance', 'Compliance'],
  ['webhooks', 'Webhooks and exports'],
  ['people', 'People'],
  ['settings', 'Settings'],
] as const;

export type OrgPage = (typeof ORG_PAGES)[number][0];

export const orgPath = (orgId: string, page: string) =>
  `/orgs/${encodeURIComponent(orgId)}/${page}`;

/** A bare page: login, invitation, errors. */
export function bare(title: string, body: Html): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Call tracking console</title>
<link rel="stylesheet" href="/assets/console.css">
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
<script src="/assets/console.js" defer></script>
</head>
<body class="bare">
<main id="main" class="narrow">
${body}
</main>
</body>
</html>`;
}

function topBar(ctx: PageContext, org: OrgContext | null, shows: string | null): Html {
  // The organization the page is about, else none: the switcher never names another one.
  const selected = org?.org.id ?? shows;
  const known = ctx.orgs.some((o) => o.id === selected);
  const switcher =
    ctx.orgs.length > 1 || (org === null && ctx.orgs.length > 0)
      ? html`<form method="get" action="/switch" class="switcher" data-autosubmit>
  <label for="org-switch">Organization</label>
  <select id="org-switch" name="org">
    ${known ? '' : html`<option value="" selected>Choose an organization</option>`}
    ${ctx.orgs.map(
      (o) =>
        html`<option value="${o.id}"${selected === o.id ? html` selected` : ''}>${o.name}</option>`,
    )}
  </select>
  <button type="submit" class="js-hide">Open</button>
</form>`
      : org
        ? html`<span class="org-name">${org.org.name}</span>`
        : '';
  return html`<header class="top">
  <a class="brand" href="/">Call tracking</a>
  ${switcher}
  <nav class="account" aria-label="Account">
    <a href="/account">${ctx.viewer.user.email}</a>
    <form method="post" action="/logout" class="inline">
      <input type="hidden" name="_csrf" value="${ctx.csrf}">
      <button type="submit" class="link">Log out</button>
    </form>
  </nav>
</header>`;
}

function sideNav(ctx: PageContext, org: OrgContext | null, current: string): Html | string {
  // A manager's or viewer's Account page has no pages to list: no empty bar or sidebar.
  if (!org && !ctx.viewer.user.operator) return '';
  const link = (href: string, label: string, key: string) =>
    html`<li><a href="${href}"${key === current ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav class="side" aria-label="Pages">
  ${
    org
      ? html`<ul>${ORG_PAGES.map(([key, label]) => link(orgPath(org.org.id, key), label, key))}</ul>`
      : ''
  }
  ${
    ctx.viewer.user.operator
      ? html`<p class="nav-head">Operator</p><ul>
    ${link('/operator/orgs', 'Organizations and keys', 'operator-orgs')}
    ${link('/operator/users', 'Users and invitations', 'operator-users')}
  </ul>`
      : ''
  }
</nav>`;
}

/** The range picker: whole days in the organization's time zone. */
function rangeForm(ctx: OrgContext, path: string): Html {
  return html`<form method="get" action="${path}" class="range">
  <label>From <input type="date" name="from" value="${ctx.range.from}" required></label>
  <label>To <input type="date" name="to" value="${ctx.range.to}" required></label>
  <button type="submit">Show</button>
  <span class="zone">Days and times in ${ctx.zone}${ctx.role !== 'viewer' ? html` (<a href="${orgPath(ctx.org.id, 'settings')}">change</a>)` : ''}</span>
</form>`;
}

export interface PageOptions {
  title: string;
  current: string;
  body: Html;
  /** Show the date range picker, submitting to this path. */
  rangePath?: string;
  notice?: string | null;
  /** The organization a page outside one is about (an operator's page of it). */
  shows?: string | null;
}

export function page(ctx: PageContext, org: OrgContext | null, o: PageOptions): Html {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title}${org ? html` · ${org.org.name}` : ''} · Call tracking console</title>
<link rel="stylesheet" href="/assets/console.css">
<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">
<script src="/assets/console.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${topBar(ctx, org, o.shows ?? null)}
<div class="frame">
${sideNav(ctx, org, o.current)}
<main id="main">
<div class="page-head">
<h1>${o.title}</h1>
${org && o.rangePath ? rangeForm(org, o.rangePath) : ''}
</div>
${o.notice ? html`<p class="notice" role="status">${o.notice}</p>` : ''}
${org && o.rangePath && org.range.notice ? html`<p class="notice" role="status">${org.range.notice}</p>` : ''}
${o.body}
</main>
</div>
</body>
</html>`;
}
