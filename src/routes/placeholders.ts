import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { errors } from '../errors.js';
import { requireScope } from '../http/auth.js';
import { validateRequest } from '../http/validate.js';
import { BuyerReportBody, buyerReportSchema } from './buyer-report/schema.js';
import { bearerSecurity, CampaignCodeParams } from './common.js';

/**
 * Routes whose operation lands with a later capability: they already
 * authenticate and validate exactly as they will, then answer 501.
 */
export function pendingRoutes(app: FastifyInstance, deps: AppDeps, which: 'buyer-report'[]): void {
  const now = () => deps.clock.now();
  const notImplemented = async () => {
    throw errors.notImplemented();
  };
  if (which.includes('buyer-report')) {
    app.post('/dni/campaigns/:campaign_code/buyer-report', {
      schema: { ...buyerReportSchema, security: bearerSecurity },
      onRequest: requireScope(deps.keyring, 'execute', now),
      preHandler: validateRequest({ params: CampaignCodeParams, body: BuyerReportBody }),
      handler: notImplemented,
    });
  }
}
