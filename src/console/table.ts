/** Tables of the console pages: columns, the table with its CSV link and empty state. */
import { type Html, html } from './html.js';
import { isoInZone, timeCell } from './time.js';

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
   * Text a person typed (a buyer's name, a report's notes, an email address): wraps anywhere
   * once its column is squeezed, so one long word never widens the table past a laptop's width.
   */
  text?: boolean;
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
    const names = [
      c.numeric ? 'num' : c.long ? 'long' : c.text ? 'text' : '',
      c.low ? 'low' : '',
    ].filter(Boolean);
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
