import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Org } from '../../../domain/admin/ports.js';
import type { Queries } from '../../../domain/admin/queries.js';
import { errors } from '../../../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Under /admin/orgs/:org_id: the organization, read once before the handler runs. */
    org: Org | null;
  }
}

export const ORG_PREFIX = '/admin/orgs/:org_id';

/** The organization the org-scoped plugin resolved for this request. */
export function orgOf(request: FastifyRequest): Org {
  if (!request.org) throw new Error(`${request.routeOptions.url} is not org-scoped`);
  return request.org;
}

/**
 * Every admin route under /admin/orgs/:org_id, registered by `routes` in one encapsulated
 * plugin that reads the organization once per request (`orgOf`) and answers 404 for an unknown
 * one before the handler runs. The lookup goes after the route's own preHandlers, so a
 * malformed id or body is still a 422 first, as the spec's validation order has it. A route
 * outside the prefix registered here is a mistake caught at start-up.
 */
export function orgScoped(
  admin: FastifyInstance,
  queries: Pick<Queries, 'findOrg'>,
  routes: (scope: FastifyInstance) => void,
): void {
  const resolve: preHandlerAsyncHookHandler = async (request) => {
    const { org_id } = request.params as { org_id: string };
    const org = await queries.findOrg(org_id);
    if (!org) throw errors.orgNotFound();
    request.org = org;
  };
  admin.register(async (scope) => {
    scope.decorateRequest('org', null);
    scope.addHook('onRoute', (route) => {
      if (route.url !== ORG_PREFIX && !route.url.startsWith(`${ORG_PREFIX}/`)) {
        throw new Error(`${route.method} ${route.url} is registered under ${ORG_PREFIX}`);
      }
      const own = route.preHandler ? [route.preHandler].flat() : [];
      route.preHandler = [...own, resolve];
    });
    routes(scope);
  });
}
