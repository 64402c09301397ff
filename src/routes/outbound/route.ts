import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { executeTouch } from '../../domain/outbound/touches.js';
import { principalOf, requireScope } from '../../http/auth.js';
import { validateRequest } from '../../http/validate.js';
import { bearerSecurity, CampaignCodeParams } from '../common.js';
import { OutboundBody, outboundSchema } from './schema.js';

export function outboundRoute(app: FastifyInstance, deps: AppDeps): void {
  const now = () => deps.clock.now();
  const postTrackingCampaignsByCampaignCodeOutbound = validateRequest({
    params: CampaignCodeParams,
    body: OutboundBody,
  });
  app.post('/tracking/campaigns/:campaign_code/outbound', {
    schema: { ...outboundSchema, security: bearerSecurity },
    onRequest: requireScope(deps.keyring, 'execute', now),
    preHandler: postTrackingCampaignsByCampaignCodeOutbound.hook,
    handler: async (request, reply) => {
      const { params, body } = postTrackingCampaignsByCampaignCodeOutbound.read(request);
      const p = principalOf(request);
      const out = await executeTouch(
        deps.repos,
        { orgId: p.orgId, actor: `key:${p.keyId}`, requestId: request.id },
        params.campaign_code,
        body,
        now(),
      );
      deps.metrics.outboundTouches.inc({ status: out.status, replayed: String(out.replayed) });
      if (out.replayed) reply.header('idempotent-replayed', 'true');
      // A string body skips the response serializer: a replay sends the first bytes again.
      return reply.code(out.statusCode).type('application/json').send(out.body);
    },
  });
}
