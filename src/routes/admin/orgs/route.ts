import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { createOrg, orgView, updateOrg } from '../../../domain/admin/orgs-keys.js';
import { adminContext } from '../shared/context.js';
import { PageQuery } from '../shared/list-query.js';
import { listRoute } from '../shared/list-route.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX, orgOf } from '../shared/org-scope.js';
import { OrgIdParams } from '../shared/params.js';
import { CreateOrg, OrgItem, UpdateOrg } from './schema.js';

/** Creating an organization and listing them all: outside the org-scoped plugin. */
export function orgRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const postOrgs = adminRoute('organizations', 'Create an organization', {
    body: CreateOrg,
    status: 201,
    answer: OrgItem,
  });
  admin.post('/admin/orgs', postOrgs.options, async (req, reply) => {
    const { body } = postOrgs.read(req);
    return reply.code(201).send(await createOrg(adminContext(deps, req), body));
  });

  listRoute(admin, '/admin/orgs', 'organizations', 'List organizations, newest first', {
    doc: { query: PageQuery, answer: OrgItem },
    rows: ({ after, take }) => deps.queries.config.listOrgs({ limit: take, after }),
    keyOf: (r) => r.id,
    view: orgView,
  });
}

/** Showing and changing one organization (under the org-scoped plugin). */
export function ownOrgRoutes(scope: FastifyInstance, deps: AppDeps): void {
  const getOrgsByOrgId = adminRoute('organizations', 'Show an organization', {
    params: OrgIdParams,
    answer: OrgItem,
  });
  scope.get(ORG_PREFIX, getOrgsByOrgId.options, async (req) => {
    getOrgsByOrgId.read(req);
    return orgView(orgOf(req));
  });
  const patchOrgsByOrgId = adminRoute('organizations', 'Change an organization', {
    params: OrgIdParams,
    body: UpdateOrg,
    answer: OrgItem,
  });
  scope.patch(ORG_PREFIX, patchOrgsByOrgId.options, async (req) => {
    const { params, body } = patchOrgsByOrgId.read(req);
    return updateOrg(adminContext(deps, req), params.org_id, body);
  });
}
