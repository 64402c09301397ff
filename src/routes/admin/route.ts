import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { errors } from '../../errors.js';
import { credentialOf } from '../../http/auth.js';
import { auditRoute } from './audit/route.js';
import { buyerRoutes } from './buyers/route.js';
import { callRoutes } from './calls/route.js';
import { campaignRoutes } from './campaigns/route.js';
import { consentRoutes } from './consents/route.js';
import { consoleUserRoutes } from './console-users/route.js';
import { conversionRoutes } from './conversions/route.js';
import { exportRoutes } from './exports/route.js';
import { keyRoutes, orgKeyRoutes } from './keys/route.js';
import { orgRoutes, ownOrgRoutes } from './orgs/route.js';
import { poolRoutes } from './pools/route.js';
import { reportRoutes } from './reports/route.js';
import { orgScoped } from './shared/org-scope.js';
import { sameToken } from './shared/token.js';
import { suppressionRoutes } from './suppression/route.js';
import { readinessRoute, systemRoutes } from './system/route.js';
import { touchRoutes } from './touches/route.js';
import { webhookRoutes } from './webhooks/route.js';

/**
 * The provider-support API (contract §6): every admin route is registered here, a capability
 * (a folder beside this file: route.ts + schema.ts) at a time. Every row writes its audit
 * record in its own transaction.
 */
export function adminRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  adminToken: string,
  metricsToken: string = adminToken,
): void {
  app.register(async (admin) => {
    admin.addHook('onRequest', async (request) => {
      const header = credentialOf(request);
      if (header === null || !sameToken(header, adminToken)) throw errors.invalidAdminToken();
    });

    // Outside any one organization.
    orgRoutes(admin, deps);
    keyRoutes(admin, deps);
    consoleUserRoutes(admin, deps);

    // Under /admin/orgs/:org_id: the organization is read once, an unknown one is a 404.
    orgScoped(admin, deps.queries, (scope) => {
      ownOrgRoutes(scope, deps);
      orgKeyRoutes(scope, deps);
      campaignRoutes(scope, deps);
      callRoutes(scope, deps);
      poolRoutes(scope, deps);
      consentRoutes(scope, deps);
      suppressionRoutes(scope, deps);
      touchRoutes(scope, deps);
      reportRoutes(scope, deps);
      webhookRoutes(scope, deps);
      conversionRoutes(scope, deps);
      buyerRoutes(scope, deps);
      auditRoute(scope, deps);
      exportRoutes(scope, deps);
    });
    readinessRoute(admin, deps);
  });

  systemRoutes(app, deps, metricsToken);
}
