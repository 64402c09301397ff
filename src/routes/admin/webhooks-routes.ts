import type { FastifyInstance, FastifyRequest } from 'fastify';
import { checkTarget } from '../../adapters/webhook-targets.js';
import type { AppDeps } from '../../deps.js';
import type { AdminContext } from '../../domain/admin/orgs-keys.js';
import { WebhookAdmin, webhookView } from '../../domain/admin/webhooks.js';
import { errors } from '../../errors.js';
import { validateRequest } from '../../http/validate.js';
import { ORG_PREFIX } from './org-scope.js';
import * as S from './schemas.js';
import * as W from './webhook-schemas.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Outgoing webhook endpoints, their deliveries and attempts (docs/webhooks.md). */
export function webhookRoutes(
  admin: FastifyInstance,
  deps: AppDeps,
  ctx: (req: FastifyRequest) => AdminContext<AppDeps['repos']>,
): void {
  const service = (req: FastifyRequest) => new WebhookAdmin(ctx(req), deps.webhooks, checkTarget);
  const base = `${ORG_PREFIX}/webhooks`;
  const one = `${base}/:webhook_id`;
  const OrgParams = S.OrgIdParams;

  const postWebhooks = validateRequest({ params: OrgParams, body: W.CreateWebhook });
  admin.post(base, { preHandler: postWebhooks.hook }, async (req, reply) => {
    const { params, body } = postWebhooks.read(req);
    return reply.code(201).send(await service(req).create(params.org_id, body));
  });
  const getWebhooks = validateRequest({ params: OrgParams });
  admin.get(base, { preHandler: getWebhooks.hook }, async (req) => {
    const { params } = getWebhooks.read(req);
    return service(req).list(params.org_id);
  });
  const getWebhooksByWebhookId = validateRequest({ params: W.WebhookParams });
  admin.get(one, { preHandler: getWebhooksByWebhookId.hook }, async (req) => {
    const { params } = getWebhooksByWebhookId.read(req);
    return webhookView(await service(req).find(params.org_id, params.webhook_id), deps.clock.now());
  });
  const patchWebhooksByWebhookId = validateRequest({
    params: W.WebhookParams,
    body: W.UpdateWebhook,
  });
  admin.patch(one, { preHandler: patchWebhooksByWebhookId.hook }, async (req) => {
    const { params, body } = patchWebhooksByWebhookId.read(req);
    return service(req).update(params.org_id, params.webhook_id, body);
  });
  for (const [action, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    const postWebhookToggle = validateRequest({ params: W.WebhookParams });
    admin.post(`${one}/${action}`, { preHandler: postWebhookToggle.hook }, async (req) => {
      const { params } = postWebhookToggle.read(req);
      return service(req).update(params.org_id, params.webhook_id, { enabled });
    });
  }
  const postWebhooksByWebhookIdRotate = validateRequest({
    params: W.WebhookParams,
    body: W.RotateWebhook,
    bodyOptional: true,
  });
  admin.post(
    `${one}/rotate`,
    {
      preHandler: postWebhooksByWebhookIdRotate.hook,
    },
    async (req, reply) => {
      const { params, body } = postWebhooksByWebhookIdRotate.read(req);
      const grace = body?.grace_seconds ?? 86_400;
      return reply
        .code(201)
        .send(await service(req).rotate(params.org_id, params.webhook_id, grace));
    },
  );
  const deleteWebhooksByWebhookId = validateRequest({ params: W.WebhookParams });
  admin.delete(one, { preHandler: deleteWebhooksByWebhookId.hook }, async (req) => {
    const { params } = deleteWebhooksByWebhookId.read(req);
    return service(req).remove(params.org_id, params.webhook_id);
  });

  const getWebhooksByWebhookIdDeliveries = validateRequest({
    params: W.WebhookParams,
    query: W.DeliveriesQuery,
  });
  admin.get(
    `${one}/deliveries`,
    { preHandler: getWebhooksByWebhookIdDeliveries.hook },
    async (req) => {
      const { params, query } = getWebhooksByWebhookIdDeliveries.read(req);
      await service(req).find(params.org_id, params.webhook_id);
      const rows = await deps.queries.webhooks.listDeliveries(
        params.org_id,
        params.webhook_id,
        query,
      );
      return {
        deliveries: rows.map(({ d, type }) => ({
          delivery_id: d.id,
          event_id: d.eventId,
          event_type: type,
          state: d.state,
          attempts: d.attempts,
          next_attempt_at: d.state === 'pending' ? iso(d.nextAttemptAt) : null,
          last_status: d.lastStatus,
          last_error: d.lastError,
          delivered_at: iso(d.deliveredAt),
          created_at: iso(d.createdAt),
        })),
      };
    },
  );
  const getWebhooksByWebhookIdAttempts = validateRequest({
    params: W.WebhookParams,
    query: W.AttemptsQuery,
  });
  admin.get(`${one}/attempts`, { preHandler: getWebhooksByWebhookIdAttempts.hook }, async (req) => {
    const { params, query } = getWebhooksByWebhookIdAttempts.read(req);
    await service(req).find(params.org_id, params.webhook_id);
    const rows = await deps.queries.webhooks.listAttempts(params.org_id, params.webhook_id, {
      eventId: query.event_id,
      limit: query.limit,
    });
    return {
      attempts: rows.map((a) => ({
        attempt_id: a.id,
        delivery_id: a.deliveryId,
        event_id: a.eventId,
        attempt: a.attempt,
        outcome: a.outcome,
        status_code: a.statusCode,
        latency_ms: a.latencyMs,
        response_head: a.responseHead,
        error: a.error,
        started_at: iso(a.startedAt),
        finished_at: iso(a.finishedAt),
      })),
    };
  });
  const postWebhooksByWebhookIdReplay = validateRequest({
    params: W.WebhookParams,
    body: W.ReplayWebhook,
  });
  admin.post(
    `${one}/replay`,
    { preHandler: postWebhooksByWebhookIdReplay.hook },
    async (req, reply) => {
      const { params, body } = postWebhooksByWebhookIdReplay.read(req);
      if ((body.event_id === undefined) === (body.since === undefined)) {
        throw errors.field(['body'], 'give exactly one of event_id and since', body);
      }
      const what = body.event_id ? { eventId: body.event_id } : { since: new Date(body.since!) };
      const queued = await service(req).replay(params.org_id, params.webhook_id, what, body);
      return reply.code(202).send({ webhook_id: params.webhook_id, queued });
    },
  );
}
