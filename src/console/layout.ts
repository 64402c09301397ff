import type { OrgContext, PageContext } from './context.js';
import { type Html, html } from './html.js';
import { isoInZone, timeCell } from './time.js';

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

/** A link to this page's table as CSV, keeping the range and filters. */
export function csvLink(query: Record<string, string | undefined>, path: string, table: string) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && k !== 'cursor') q.set(k, v);
  q.set('format', 'csv');
  q.set('table', table);
  return html`<a class="csv" href="${path}?${q.toString()}" download>Download CSV</a>`;
}

export interface Column<T> {
  label: string;
  value: (row: T) => string | number | null | undefined;
  /** Rendered cell; default the value as text. */
  cell?: (row: T) => Html | string;
  numeric?: boolean;
  /**
   * A long unbroken value (an audit line's JSON, an id, who made a link) that wraps anywhere
   * within a column of at least 14rem, instead of widening the table past the screen.
   */
  long?: boolean;
  /**
   * Shown on wide screens only (and always in the CSV): a detail the table can do without,
   * so that it fits a 1280 px screen without scrolling sideways.
   */
  low?: boolean;
}

/** A code word (consent_revoked) that may wrap after its underscores when its column is narrow. */
export function codeWord(word: string): Html {
  return html`${word.split('_').map((part, i) => (i === 0 ? part : html`_<wbr>${part}`))}`;
}

/**
 * A right-aligned number column: `value` is what sorts and goes to the CSV, `show` how the
 * page prints it (ctx.num, ctx.pct).
 */
export function numberColumn<T>(
  label: string,
  value: (row: T) => number | null | undefined,
  show: (n: number | null | undefined) => string,
): Column<T> {
  return { label, value, cell: (row) => show(value(row)), numeric: true };
}

/**
 * A column of instants in `zone`: the heading names the zone, the page shows
 * local date and time with the zone's short name, the CSV ISO 8601 with the offset.
 */
export function timeColumn<T>(
  label: string,
  at: (row: T) => Date | null | undefined,
  zone: string,
): Column<T> {
  return {
    label: `${label} (${zone})`,
    value: (row) => isoInZone(at(row), zone),
    cell: (row) => timeCell(at(row), zone),
  };
}

/** Cards a stacked table shows on a phone before its "Show all" link. */
export const PHONE_CARDS = 10;

/** A table with a caption, its CSV link, and an empty state that says what to do. */
export function table<T>(o: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  empty: Html | string;
  csv?: Html;
  /**
   * On a phone, each row is a card of label and value lines instead of a table that scrolls
   * sideways: for records with long text (an opt-out's words, a URL, an email address, an
   * audit line) or a button per row, which would otherwise wrap a word per line in a squeezed
   * column or hide off screen. Tables of numbers to compare down a column keep scrolling.
   */
  stacked?: boolean;
}): Html {
  const classes = [o.columns.length <= 4 ? 'compact' : '', o.stacked ? 'stacked' : '']
    .filter(Boolean)
    .join(' ');
  // A long list of cards shows its first PHONE_CARDS on a phone, then a link to the rest (the
  // section as the URL's target, CSS alone: no script).
  const folded = o.stacked === true && o.rows.length > PHONE_CARDS;
  const id = `table-${o.caption.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  const more = (i: number) => (folded && i >= PHONE_CARDS ? html` class="phone-more"` : '');
  const label = (c: Column<T>) => (o.stacked ? html` data-label="${c.label}"` : '');
  const cellClass = (c: Column<T>) => {
    const names = [c.numeric ? 'num' : c.long ? 'long' : '', c.low ? 'low' : ''].filter(Boolean);
    return names.length ? html` class="${names.join(' ')}"` : '';
  };
  return html`<section class="table-block"${folded ? html` id="${id}"` : ''}>
<div class="table-head"><h2>${o.caption}</h2>${o.csv ?? ''}</div>
${
  o.rows.length === 0
    ? html`<p class="empty">${o.empty}</p>`
    : html`<div class="scroll" tabindex="0" role="region" aria-label="${o.caption}"><table${classes ? html` class="${classes}"` : ''}>
<thead><tr>${o.columns.map((c) => html`<th scope="col"${cellClass({ ...c, long: false })}>${c.label}</th>`)}</tr></thead>
<tbody>${o.rows.map(
        (r, i) =>
          html`<tr${more(i)}>${o.columns.map(
            (c) =>
              html`<td${cellClass(c)}${label(c)}>${c.cell ? c.cell(r) : (c.value(r) ?? '')}</td>`,
          )}</tr>`,
      )}</tbody>
</table></div>${folded ? html`<a class="show-all" href="#${id}">Show all ${o.rows.length} ${o.caption.toLowerCase()}</a>` : ''}`
}
</section>`;
}
