import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';
import { errors } from '../errors.js';
import { requireScope } from '../http/auth.js';
import { validateRequest } from '../http/validate.js';
import { bearerSecurity, CampaignCodeParams } from './common.js';
import { OutboundBody, outboundSchema } from './outbound/schema.js';

/**
 * Routes whose operation lands with a later capability: they already
 * authenticate and validate exactly as they will, then answer 501.
 */
export function pendingRoutes(app: FastifyInstance, deps: AppDeps, which: 'outbound'[]): void {
  const now = () => deps.clock.now();
  const notImplemented = async () => {
    throw errors.notImplemented();
  };
  if (which.includes('outbound')) {
    app.post('/tracking/campaigns/:campaign_code/outbound', {
      schema: { ...outboundSchema, security: bearerSecurity },
      onRequest: requireScope(deps.keyring, 'execute', now),
      preHandler: validateRequest({ params: CampaignCodeParams, body: OutboundBody }),
      handler: notImplemented,
    });
  }
}
