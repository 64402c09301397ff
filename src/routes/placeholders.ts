import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../app.js';
import { errors } from '../errors.js';
import { principalOf, requireScope } from '../http/auth.js';
import { validated, validateRequest } from '../http/validate.js';
import { findCampaign } from '../store/repos/campaigns.js';
import { bearerSecurity, CampaignCodeParams, Detail } from './common.js';
import { OutboundBody, outboundSchema } from './outbound/schema.js';

/**
 * Routes whose operation lands with a later capability: they already
 * authenticate, validate and resolve the campaign exactly as they will, then
 * answer 501.
 */
export function pendingRoutes(app: FastifyInstance, deps: AppDeps, which: 'outbound'[]): void {
  const now = () => deps.clock.now();
  const pending = { 501: Detail(['not_implemented'], 'Not available yet in this version') };
  // The 404 comes before the operation (contract §2), so tenancy holds already.
  const notImplemented = async (request: FastifyRequest) => {
    const { params } = validated<{ campaign_code: string }, unknown>(request);
    const campaign = await findCampaign(
      deps.store.db,
      principalOf(request).orgId,
      params.campaign_code,
    );
    if (!campaign) throw errors.campaignNotFound();
    throw errors.notImplemented();
  };
  if (which.includes('outbound')) {
    app.post('/tracking/campaigns/:campaign_code/outbound', {
      schema: {
        ...outboundSchema,
        response: { ...outboundSchema.response, ...pending },
        security: bearerSecurity,
      },
      onRequest: requireScope(deps.keyring, 'execute', now),
      preHandler: validateRequest({ params: CampaignCodeParams, body: OutboundBody }),
      handler: notImplemented,
    });
  }
}
