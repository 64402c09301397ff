import { type Command, Option, type OptionValues } from 'commander';
import { type Answer, formatValue, table, type View } from '../output.js';
import { integer } from './shared.js';

/** One column of a list's table: its header and how to read the cell from an item. */
export interface Column {
  header: string;
  cell(item: Answer): unknown;
}

/** A column that shows one field of the item as it is. */
export const col = (header: string, key: string): Column => ({ header, cell: (i) => i[key] });

/**
 * A page of `{items, next_cursor}` as a table, with the next page's command
 * under it; `-q` prints the ids one per line (for `xargs`), `--json` the page
 * as the API gave it, cursor included, for scripts that page.
 */
export function listView(idField: string, columns: Column[]): View {
  const view = rowsView('items', idField, '(none)', columns);
  return {
    primary: view.primary,
    human: (page) => {
      const out = view.human(page);
      return page.next_cursor ? `${out}\n\nmore: add --cursor ${page.next_cursor}` : out;
    },
  };
}

/** An answer holding one whole list under `key` as a table; `-q` prints the ids. */
export function rowsView(key: string, idField: string, empty: string, columns: Column[]): View {
  const rowsOf = (a: Answer) => (Array.isArray(a[key]) ? (a[key] as Answer[]) : []);
  return {
    primary: (a) =>
      rowsOf(a)
        .map((i) => formatValue(i[idField]))
        .join('\n'),
    human: (a) => {
      const items = rowsOf(a);
      if (items.length === 0) return empty;
      return table(
        columns.map((c) => c.header),
        items.map((i) => columns.map((c) => formatValue(c.cell(i)))),
      );
    },
  };
}

/** --limit and --cursor, the paging every list command takes. */
export function paged(cmd: Command): Command {
  return cmd
    .option('--limit <n>', 'items per page, 1 to 1000 (default 100)', integer)
    .option('--cursor <cursor>', 'the page after the one that printed it');
}

/** --since and --until, for lists of things that happened. */
export function timeRange(cmd: Command, what: string): Command {
  return cmd
    .option('--since <iso>', `${what} at or after this time (ISO 8601 with a zone)`)
    .option('--until <iso>', `${what} before this time`);
}

export const pageQuery = (options: { limit?: number; cursor?: string }) => ({
  limit: options.limit,
  cursor: options.cursor,
});

/** An option of a list command sent as the query parameter of its name: `--dispatch-status` → dispatch_status. */
export type Filter = Option;

export function filter(flags: string, description: string, parse?: (v: string) => unknown): Filter {
  const option = new Option(flags, description);
  return parse ? option.argParser(parse) : option;
}

export function filtered(cmd: Command, filters: Filter[]): Command {
  for (const f of filters) cmd.addOption(f);
  return cmd;
}

export const filterQuery = (filters: Filter[], o: OptionValues) =>
  Object.fromEntries(filters.map((f) => [f.name().replaceAll('-', '_'), o[f.attributeName()]]));
