import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { baseInstance } from '../app.js';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../deps.js';
import { resolveSession, type Viewer } from '../domain/console/accounts.js';
import { AppError, ValidationFailed } from '../errors.js';
import { assetRoutes, loadAssets } from './assets.js';
import {
  type ConsoleDeps,
  checkCsrf,
  cookieNames,
  formOf,
  localeOf,
  numberFormats,
  type OrgContext,
  type PageContext,
  policyOf,
  type Role,
  readCookies,
  requireManager,
} from './context.js';
import { toCsv } from './csv.js';
import { type Html, html } from './html.js';
import { bare, page } from './layout.js';
import { accountRoutes } from './pages/account.js';
import { buyerPages } from './pages/buyers.js';
import { callPages } from './pages/calls.js';
import { campaignPages } from './pages/campaigns.js';
import { compliancePages } from './pages/compliance.js';
import { operatorPages } from './pages/operator.js';
import { overviewPage } from './pages/overview.js';
import { peoplePages } from './pages/people.js';
import { routingPlanPages } from './pages/routing-plan.js';
import { settingsPages } from './pages/settings.js';
import { webhookPages } from './pages/webhooks.js';
import { type ConsoleRouter, own, type PageResult, type Query, readQuery } from './router.js';
import { dayRange } from './time.js';

/**
 * The Content-Security-Policy of every answer: nothing from another origin,
 * no inline script or style, no framing, forms post only here.
 */
export const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const MESSAGES: Record<number, [string, string]> = {
  400: ['Bad request', 'The request could not be read.'],
  403: ['Not allowed', 'Your role in this organization does not allow this change.'],
  404: ['Not found', 'There is nothing here, or it is not yours to see.'],
  409: ['Conflict', 'That clashes with something that exists already.'],
  422: ['Check the form', 'Some of what was entered cannot be used.'],
  429: ['Too many requests', 'Wait a little and try again.'],
  503: ['Unavailable', 'The service cannot answer right now; try again in a moment.'],
};

function errorPage(status: number, detail: string[] = []): Html {
  const [title, text] = MESSAGES[status] ?? ['Something went wrong', 'The error has been logged.'];
  return bare(
    title,
    html`<h1>${title}</h1><p>${text}</p>${
      detail.length ? html`<ul class="problems">${detail.map((d) => html`<li>${d}</li>`)}</ul>` : ''
    }<p><a href="/">Back to the console</a></p>`,
  );
}

/** The web console (contract §9): its own listener, server-rendered pages. It never listens. */
export async function buildConsoleApp(
  deps: ConsoleDeps,
  limits: HttpLimits = DEFAULT_HTTP_LIMITS,
): Promise<FastifyInstance> {
  const app = baseInstance(deps.logger, limits);
  const policy = policyOf(deps.console);
  const names = cookieNames(deps.console);
  const now = () => new Date(deps.clock.now());
  const reports = deps.queries.reports;

  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('content-security-policy', CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  app.setNotFoundHandler(async (_req, reply) =>
    reply.code(404).type('text/html; charset=utf-8').send(errorPage(404).text),
  );
  app.setErrorHandler(async (err, req, reply) => {
    let status = 500;
    let detail: string[] = [];
    if (err instanceof AppError) {
      status = err.status;
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      if (err.code === 'invalid_csrf_token')
        detail = ['The form was stale or came from elsewhere. Reload the page and try again.'];
      else if (err.code === 'conflict') detail = [String(err.extra.reason ?? '')];
    } else if (err instanceof ValidationFailed) {
      status = 422;
      detail = err.errors.map(
        (e) => `${String(e.loc.at(-1))}: ${e.msg.replace(/^Value error, /, '')}`,
      );
    } else if ((err as { statusCode?: number }).statusCode === 413) status = 413;
    if (status >= 500) req.log.error({ err }, 'console request failed');
    return reply.code(status).type('text/html; charset=utf-8').send(errorPage(status, detail).text);
  });

  assetRoutes(app, loadAssets());

  const signedIn = async (req: FastifyRequest): Promise<Viewer | null> =>
    resolveSession(deps.repos, policy, readCookies(req)[names.session], now());

  const pageContext = async (req: FastifyRequest, viewer: Viewer): Promise<PageContext> => {
    const locale = localeOf(req);
    const orgs = viewer.user.operator
      ? (await deps.queries.config.listOrgs({ limit: 500 })).map((o) => ({
          id: o.id,
          name: o.name,
        }))
      : await Promise.all(
          viewer.memberships.map(async (m) => {
            const o = await deps.queries.findOrg(m.orgId);
            return { id: m.orgId, name: o?.name ?? m.orgId };
          }),
        );
    return { viewer, now: now(), locale, ...numberFormats(locale), orgs };
  };

  /** The organization as this person may see it; another's is a 404 like a missing one. */
  const orgContext = async (ctx: PageContext, orgId: string, q: Query): Promise<OrgContext> => {
    const member = ctx.viewer.memberships.find((m) => m.orgId === orgId);
    const role: Role | null = ctx.viewer.user.operator ? 'operator' : (member?.role ?? null);
    const org = role ? await deps.queries.findOrg(orgId) : null;
    if (!org || !role) throw new AppError('Not Found');
    const zone = (await reports.orgTimeZone(org.id)) ?? 'UTC';
    return { ...ctx, org, role, zone, range: dayRange(q, zone, ctx.now) };
  };

  const toLogin = (req: FastifyRequest, reply: FastifyReply) =>
    reply.redirect(
      req.method === 'GET' ? `/login?next=${encodeURIComponent(req.url)}` : '/login',
      303,
    );

  const respond = (
    reply: FastifyReply,
    ctx: PageContext,
    org: OrgContext | null,
    current: string,
    r: PageResult,
    q: Query,
    path?: string,
  ) => {
    if (r.download) {
      return reply
        .type(r.download.type)
        .header(
          'content-disposition',
          `attachment; filename="${r.download.name.replace(/[^\w.-]/g, '_')}"`,
        )
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
      .send(router.render(ctx, org, r.current ?? current, r, path).text);
  };

  const router: ConsoleRouter = {
    deps,
    reports,
    render(ctx, org, current, r, own) {
      // The range picker submits to the page it is on (a campaign's page, not the list's).
      const path = org ? (own ?? `/orgs/${encodeURIComponent(org.org.id)}/${current}`) : undefined;
      return page(ctx, org, {
        title: r.title,
        current,
        body: r.body,
        ...(org && r.range !== false && path ? { rangePath: path } : {}),
        notice: r.notice ?? null,
        shows: r.shows ?? null,
      });
    },
    orgPage(path, current, fn) {
      app.get(`/orgs/:org${path}`, async (req, reply) => {
        const viewer = await signedIn(req);
        if (!viewer) return toLogin(req, reply);
        const params = req.params as Record<string, string>;
        const q = readQuery(req.query);
        const ctx = await orgContext(await pageContext(req, viewer), params.org!, q);
        const own = req.url.split('?')[0];
        return respond(reply, ctx, ctx, current, await fn(ctx, q, params), q, own);
      });
    },
    orgAction(path, fn) {
      app.post(`/orgs/:org${path}`, async (req, reply) => {
        const viewer = await signedIn(req);
        if (!viewer) return toLogin(req, reply);
        const form = formOf(req);
        checkCsrf(req, form, viewer.session.csrfToken);
        const params = req.params as Record<string, string>;
        const ctx = await orgContext(await pageContext(req, viewer), params.org!, {});
        requireManager(ctx);
        const out = await fn(ctx, form, params, req);
        if (typeof out === 'string') return reply.redirect(out, 303);
        return respond(reply, ctx, ctx, '', out, {});
      });
    },
    userPage(path, current, fn) {
      app.get(path, async (req, reply) => {
        const viewer = await signedIn(req);
        if (!viewer) return toLogin(req, reply);
        const ctx = await pageContext(req, viewer);
        const q = readQuery(req.query);
        const r = await fn(ctx, q, req.params as Record<string, string>);
        return respond(reply, ctx, null, current, r, q);
      });
    },
    userAction(path, fn) {
      app.post(path, async (req, reply) => {
        const viewer = await signedIn(req);
        if (!viewer) return toLogin(req, reply);
        const form = formOf(req);
        checkCsrf(req, form, viewer.session.csrfToken);
        const ctx = await pageContext(req, viewer);
        const out = await fn(ctx, form, req.params as Record<string, string>, req);
        if (typeof out === 'string') return reply.redirect(out, 303);
        return respond(reply, ctx, null, '', out, {});
      });
    },
  };

  accountRoutes(app, router, { signedIn, pageContext, policy, names });
  overviewPage(router);
  callPages(router);
  campaignPages(router);
  routingPlanPages(router);
  buyerPages(router);
  compliancePages(router);
  webhookPages(router);
  peoplePages(router);
  settingsPages(router);
  operatorPages(router);
  return app;
}
