import type { FastifyInstance } from 'fastify';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../config.js';
import type { AppDeps } from '../../deps.js';
import type { SessionBatcher } from '../../domain/dni/batcher.js';
import { createDniSession } from '../../domain/dni/sessions.js';
import { PoolAlerts } from '../../domain/webhooks/pool-alerts.js';
import { dniRateLimit, principalOf, requireScope } from '../../http/auth.js';
import { validateRequest } from '../../http/validate.js';
import { bearerSecurity } from '../common.js';
import { DniSessionBody, dniSessionSchema } from './schema.js';

export function dniSessionRoute(
  app: FastifyInstance,
  deps: AppDeps,
  sessions: Pick<SessionBatcher, 'open'>,
): void {
  const now = () => deps.clock.now();
  const alerts = new PoolAlerts(
    deps.repos,
    (deps.webhooks ?? DEFAULT_WEBHOOK_SETTINGS).poolAlertIntervalMs,
    deps.logger,
  );
  const postDniSession = validateRequest({ body: DniSessionBody });
  app.post('/dni/session', {
    schema: { ...dniSessionSchema, security: bearerSecurity },
    onRequest: [
      requireScope(deps.keyring, 'enroll', now),
      dniRateLimit(deps.limiter, now, deps.metrics),
    ],
    preHandler: postDniSession.hook,
    handler: async (request, reply) => {
      const { body } = postDniSession.read(request);
      const at = new Date(now());
      const s = await createDniSession(sessions, principalOf(request).orgId, body, at);
      deps.metrics.dniSessions.inc({ campaign_id: s.campaignId, outcome: s.outcome });
      if (s.outcome === 'shared' || s.outcome === 'overflow') {
        deps.metrics.poolExhausted.inc({ campaign_id: s.campaignId, fallback: s.outcome });
        await alerts.exhausted(principalOf(request).orgId, body.campaign_code, s, at);
      }
      return reply.code(201).send({
        tracking_number: s.trackingNumber,
        dni_session_id: s.sessionId,
        expires_at: s.expiresAt.toISOString(),
      });
    },
  });
}
