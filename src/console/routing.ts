import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Viewer } from '../domain/console/accounts.js';
import { AppError } from '../errors.js';
import {
  type ConsoleDeps,
  formOf,
  type OrgContext,
  type PageContext,
  requireManager,
} from './context.js';
import { toCsv } from './csv.js';
import type { Html } from './html.js';
import { page } from './layout.js';
import { type ConsoleRouter, own, type PageResult, type Query, readQuery } from './router.js';
import type { Viewers } from './viewers.js';

/** `own`: the page's own path, where its range picker submits (a campaign's page, not the list's). */
function render(
  ctx: PageContext,
  org: OrgContext | null,
  current: string,
  r: PageResult,
  ownPath?: string,
): Html {
  const path = org ? (ownPath ?? `/orgs/${encodeURIComponent(org.org.id)}/${current}`) : undefined;
  return page(ctx, org, {
    title: r.title,
    current,
    body: r.body,
    ...(org && r.range !== false && path ? { rangePath: path } : {}),
    notice: r.notice ?? null,
    shows: r.shows ?? null,
  });
}

/** A page as HTML, one of its tables as CSV (`?format=csv&table=`), or the file it offers. */
function respond(
  reply: FastifyReply,
  ctx: PageContext,
  org: OrgContext | null,
  current: string,
  r: PageResult,
  q: Query,
  path?: string,
) {
  if (r.download) {
    const name = r.download.name.replace(/[^\w.-]/g, '_');
    return reply
      .type(r.download.type)
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(r.download.body);
  }
  if (q.format === 'csv') {
    const t = own(r.tables, q.table);
    if (!t) throw new AppError('Not Found');
    const file = `${q.table}-${org ? `${org.range.from}-${org.range.to}` : ctx.now.toISOString().slice(0, 10)}.csv`;
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${file}"`)
      .send(toCsv(t.columns, t.rows));
  }
  return reply
    .code(r.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(render(ctx, org, r.current ?? current, r, path).text);
}

export const toLogin = (req: FastifyRequest, reply: FastifyReply) =>
  reply.redirect(
    req.method === 'GET' ? `/login?next=${encodeURIComponent(req.url)}` : '/login',
    303,
  );

/** The routes of signed-in pages and changes: sign-in first, then the CSRF token for changes. */
export function consoleRouter(app: FastifyInstance, deps: ConsoleDeps, v: Viewers): ConsoleRouter {
  /** Who made a change request, found by its first guard. */
  const changedBy = new WeakMap<FastifyRequest, Viewer>();
  const changeGuards = {
    preHandler: [
      async (req: FastifyRequest, reply: FastifyReply) => {
        const viewer = await v.signedIn(req);
        if (!viewer) return toLogin(req, reply);
        changedBy.set(req, viewer);
      },
      app.csrfProtection,
    ],
  };
  const paramsOf = (req: FastifyRequest) => req.params as Record<string, string>;
  return {
    deps,
    reports: deps.queries.reports,
    render,
    orgPage(path, current, fn) {
      app.get(`/orgs/:org${path}`, async (req, reply) => {
        const viewer = await v.signedIn(req);
        if (!viewer) return toLogin(req, reply);
        const q = readQuery(req.query);
        const base = await v.pageContext(req, reply, viewer);
        const ctx = await v.orgContext(base, paramsOf(req).org!, q);
        const ownPath = req.url.split('?')[0];
        return respond(reply, ctx, ctx, current, await fn(ctx, q, paramsOf(req)), q, ownPath);
      });
    },
    orgAction(path, fn) {
      app.post(`/orgs/:org${path}`, changeGuards, async (req, reply) => {
        const base = await v.pageContext(req, reply, changedBy.get(req)!);
        const ctx = await v.orgContext(base, paramsOf(req).org!, {});
        requireManager(ctx);
        const out = await fn(ctx, formOf(req), paramsOf(req), req);
        if (typeof out === 'string') return reply.redirect(out, 303);
        return respond(reply, ctx, ctx, '', out, {});
      });
    },
    userPage(path, current, fn) {
      app.get(path, async (req, reply) => {
        const viewer = await v.signedIn(req);
        if (!viewer) return toLogin(req, reply);
        const ctx = await v.pageContext(req, reply, viewer);
        const q = readQuery(req.query);
        return respond(reply, ctx, null, current, await fn(ctx, q, paramsOf(req)), q);
      });
    },
    userAction(path, fn) {
      app.post(path, changeGuards, async (req, reply) => {
        const ctx = await v.pageContext(req, reply, changedBy.get(req)!);
        const out = await fn(ctx, formOf(req), paramsOf(req), req);
        if (typeof out === 'string') return reply.redirect(out, 303);
        return respond(reply, ctx, null, '', out, {});
      });
    },
  };
}
