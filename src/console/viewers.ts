import type { FastifyReply, FastifyRequest } from 'fastify';
import { resolveSession, type SessionPolicy, type Viewer } from '../domain/console/accounts.js';
import { AppError } from '../errors.js';
import {
  type ConsoleDeps,
  localeOf,
  numberFormats,
  type OrgContext,
  type PageContext,
  policyOf,
  type Role,
} from './context.js';
import type { Query } from './router.js';
import { cookieNames } from './security.js';
import { dayRange } from './time.js';

/** Who is signed in, and what their pages are given. */
export interface Viewers {
  policy: SessionPolicy;
  names: { session: string; csrf: string };
  signedIn(req: FastifyRequest): Promise<Viewer | null>;
  pageContext(req: FastifyRequest, reply: FastifyReply, viewer: Viewer): Promise<PageContext>;
  /** The organization as this person may see it; another's is a 404 like a missing one. */
  orgContext(ctx: PageContext, orgId: string, q: Query): Promise<OrgContext>;
}

/** Every organization the person may open, for the switcher. */
async function openable(deps: ConsoleDeps, viewer: Viewer) {
  if (viewer.user.operator)
    return (await deps.queries.config.listOrgs({ limit: 500 })).map((o) => ({
      id: o.id,
      name: o.name,
    }));
  return Promise.all(
    viewer.memberships.map(async (m) => {
      const o = await deps.queries.findOrg(m.orgId);
      return { id: m.orgId, name: o?.name ?? m.orgId };
    }),
  );
}

export function viewersOf(deps: ConsoleDeps): Viewers {
  const policy = policyOf(deps.console);
  const names = cookieNames(deps.console);
  const now = () => new Date(deps.clock.now());
  return {
    policy,
    names,
    signedIn: (req) => resolveSession(deps.repos, policy, req.cookies[names.session], now()),
    async pageContext(req, reply, viewer) {
      const locale = localeOf(req);
      const orgs = await openable(deps, viewer);
      const csrf = reply.generateCsrf();
      return { viewer, csrf, now: now(), locale, ...numberFormats(locale), orgs };
    },
    async orgContext(ctx, orgId, q) {
      const member = ctx.viewer.memberships.find((m) => m.orgId === orgId);
      const role: Role | null = ctx.viewer.user.operator ? 'operator' : (member?.role ?? null);
      const org = role ? await deps.queries.findOrg(orgId) : null;
      if (!org || !role) throw new AppError('Not Found');
      const zone = (await deps.queries.reports.orgTimeZone(org.id)) ?? 'UTC';
      return { ...ctx, org, role, zone, range: dayRange(q, zone, ctx.now) };
    },
  };
}
