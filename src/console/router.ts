import type { FastifyRequest } from 'fastify';
import type { ReportQueries } from '../domain/reports/ports.js';
import type { ConsoleDeps, OrgContext, PageContext } from './context.js';
import type { Html } from './html.js';
import type { Column } from './table.js';

/** A table of a page: rendered in its HTML and downloadable as CSV (`?format=csv&table=`). */
export interface TableData<T = never> {
  columns: Column<T>[];
  rows: T[];
}

export interface PageResult {
  title: string;
  body: Html;
  // biome-ignore lint/suspicious/noExplicitAny: each table has its own row type; the page builds columns and rows together.
  tables?: Record<string, TableData<any>>;
  /** Draw the date range picker. Default true on organization pages. */
  range?: boolean;
  notice?: string | null;
  status?: number;
  /** The nav entry to mark when an action answers with a page. */
  current?: string;
  /** The organization a page outside one is about: the switcher names it. */
  shows?: string;
  /** A file to download instead of a page. */
  download?: { type: string; name: string; body: string | Buffer };
}

export type Query = Record<string, string | undefined>;

/**
 * A request's query as pages read it: each key's first value, strings only,
 * in an object with no prototype, so `q.toString` is what the URL said or
 * nothing.
 */
export function readQuery(raw: unknown): Query {
  const q: Query = Object.create(null);
  if (!raw || typeof raw !== 'object') return q;
  for (const [k, v] of Object.entries(raw)) {
    const first = Array.isArray(v) ? v[0] : v;
    if (typeof first === 'string') q[k] = first;
  }
  return q;
}

/** `map[key]` when `key` is one of map's own keys (never Object.prototype's `constructor`…). */
export function own<T>(map: Readonly<Record<string, T>> | undefined, key: string | undefined) {
  return map && key !== undefined && Object.hasOwn(map, key) ? map[key] : undefined;
}

/** Draws a page from its context (an organization's, or only the signed-in person's). */
export type PageHandler<C> = (
  ctx: C,
  q: Query,
  params: Record<string, string>,
) => Promise<PageResult>;

/** Does what a form asks; answers where to go next, or a page to show (a secret shown once). */
export type ActionHandler<C> = (
  ctx: C,
  form: URLSearchParams,
  params: Record<string, string>,
  req: FastifyRequest,
) => Promise<string | PageResult>;

export interface ConsoleRouter {
  deps: ConsoleDeps;
  /** The report read model (contract §8): the same numbers the reporting API answers. */
  reports: ReportQueries;
  /** A page of one organization, for anyone who may see it. */
  orgPage(path: string, current: string, fn: PageHandler<OrgContext>): void;
  /** A change to one organization: managers and operators, with the CSRF token. */
  orgAction(path: string, fn: ActionHandler<OrgContext>): void;
  /** A page outside any organization (account, operator pages). */
  userPage(path: string, current: string, fn: PageHandler<PageContext>): void;
  userAction(path: string, fn: ActionHandler<PageContext>): void;
  /** `path`: the page's own path, where its range picker submits. */
  render(
    ctx: PageContext,
    org: OrgContext | null,
    current: string,
    r: PageResult,
    path?: string,
  ): Html;
}
