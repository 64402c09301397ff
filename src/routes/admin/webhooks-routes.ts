import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import type { AdminContext } from '../../domain/admin/orgs-keys.js';
import { WebhookAdmin, type WebhookInput, webhookView } from '../../domain/admin/webhooks.js';
import { errors } from '../../errors.js';
import { validated, validateRequest } from '../../http/validate.js';
import { writeAudit } from '../../store/repos/audit.js';
import { listAttempts, listDeliveries, replay } from '../../store/repos/webhook-deliveries.js';
import * as S from './schemas.js';
import * as W from './webhook-schemas.js';

type WebhookP = { org_id: string; webhook_id: string };
const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Outgoing webhook endpoints, their deliveries and attempts (docs/webhooks.md). */
export function webhookRoutes(
  admin: FastifyInstance,
  deps: AppDeps,
  ctx: (req: FastifyRequest) => AdminContext<AppDeps['repos']>,
): void {
  const service = (req: FastifyRequest) => new WebhookAdmin(ctx(req), deps.webhooks);
  const base = '/admin/orgs/:org_id/webhooks';
  const one = `${base}/:webhook_id`;
  const OrgParams = S.OrgIdParams;

  admin.post(
    base,
    { preHandler: validateRequest({ params: OrgParams, body: W.CreateWebhook }) },
    async (req, reply) => {
      const { params, body } = validated<
        { org_id: string },
        { url: string; events: string[]; description?: string | null }
      >(req);
      return reply.code(201).send(await service(req).create(params.org_id, body));
    },
  );
  admin.get(base, { preHandler: validateRequest({ params: OrgParams }) }, async (req) => {
    const { params } = validated<{ org_id: string }, unknown>(req);
    return service(req).list(params.org_id);
  });
  admin.get(one, { preHandler: validateRequest({ params: W.WebhookParams }) }, async (req) => {
    const { params } = validated<WebhookP, unknown>(req);
    return webhookView(await service(req).find(params.org_id, params.webhook_id), deps.clock.now());
  });
  admin.patch(
    one,
    { preHandler: validateRequest({ params: W.WebhookParams, body: W.UpdateWebhook }) },
    async (req) => {
      const { params, body } = validated<WebhookP, WebhookInput>(req);
      return service(req).update(params.org_id, params.webhook_id, body);
    },
  );
  for (const [action, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    admin.post(
      `${one}/${action}`,
      { preHandler: validateRequest({ params: W.WebhookParams }) },
      async (req) => {
        const { params } = validated<WebhookP, unknown>(req);
        return service(req).update(params.org_id, params.webhook_id, { enabled });
      },
    );
  }
  admin.post(
    `${one}/rotate`,
    {
      preHandler: validateRequest({
        params: W.WebhookParams,
        body: W.RotateWebhook,
        bodyOptional: true,
      }),
    },
    async (req, reply) => {
      const { params, body } = validated<WebhookP, { grace_seconds?: number }>(req);
      const grace = body?.grace_seconds ?? 86_400;
      return reply
        .code(201)
        .send(await service(req).rotate(params.org_id, params.webhook_id, grace));
    },
  );
  admin.delete(one, { preHandler: validateRequest({ params: W.WebhookParams }) }, async (req) => {
    const { params } = validated<WebhookP, unknown>(req);
    return service(req).remove(params.org_id, params.webhook_id);
  });

  admin.get(
    `${one}/deliveries`,
    { preHandler: validateRequest({ params: W.WebhookParams, query: W.DeliveriesQuery }) },
    async (req) => {
      const { params, query } = validated<WebhookP, unknown, { state?: string; limit: number }>(
        req,
      );
      await service(req).find(params.org_id, params.webhook_id);
      const rows = await listDeliveries(deps.store.db, params.org_id, params.webhook_id, query);
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
  admin.get(
    `${one}/attempts`,
    { preHandler: validateRequest({ params: W.WebhookParams, query: W.AttemptsQuery }) },
    async (req) => {
      const { params, query } = validated<WebhookP, unknown, { event_id?: string; limit: number }>(
        req,
      );
      await service(req).find(params.org_id, params.webhook_id);
      const rows = await listAttempts(deps.store.db, params.org_id, params.webhook_id, {
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
    },
  );
  admin.post(
    `${one}/replay`,
    { preHandler: validateRequest({ params: W.WebhookParams, body: W.ReplayWebhook }) },
    async (req, reply) => {
      const { params, body } = validated<WebhookP, { event_id?: string; since?: string }>(req);
      if ((body.event_id === undefined) === (body.since === undefined)) {
        throw errors.field(['body'], 'give exactly one of event_id and since', body);
      }
      await service(req).find(params.org_id, params.webhook_id);
      const nowMs = deps.clock.now();
      const what = body.event_id ? { eventId: body.event_id } : { since: new Date(body.since!) };
      const queued = await deps.store.db.transaction(async (tx) => {
        const n = await replay(tx, params.org_id, params.webhook_id, what, nowMs);
        // An event id of another organization, or none: nothing written, 404.
        if (body.event_id && n === 0) throw errors.eventNotFound();
        await writeAudit(tx, {
          orgId: params.org_id,
          actor: 'admin',
          action: 'webhook.replayed',
          subjectType: 'webhook',
          subjectId: params.webhook_id,
          detail: { ...body, queued: n },
          requestId: req.id,
          at: new Date(nowMs),
        });
        return n;
      });
      return reply.code(202).send({ webhook_id: params.webhook_id, queued });
    },
  );
}
