import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import { checkTarget } from '../../../adapters/webhook-targets.js';
import type { AppDeps } from '../../../deps.js';
import { WebhookAdmin, webhookView } from '../../../domain/admin/webhooks.js';
import { errors } from '../../../errors.js';
import { adminContext } from '../shared/context.js';
import { PageQuery } from '../shared/list-query.js';
import { listRoute } from '../shared/list-route.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { OrgIdParams } from '../shared/params.js';
import * as W from './schema.js';
import {
  DeliveryItem,
  WebhookAttemptItem,
  WebhookDeleted,
  WebhookItem,
  WebhookReplayQueued,
  WebhookWithSecret,
} from './schema.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Outgoing webhook endpoints, their deliveries and attempts (docs/webhooks.md). */
export function webhookRoutes(admin: FastifyInstance, deps: AppDeps): void {
  endpointRoutes(admin, deps);
  endpointActionRoutes(admin, deps);
  deliveryRoutes(admin, deps);
  replayRoute(admin, deps);
}

const base = `${ORG_PREFIX}/webhooks`;
const one = `${base}/:webhook_id`;
const OrgParams = OrgIdParams;
const serviceOf = (deps: AppDeps, req: FastifyRequest) =>
  new WebhookAdmin(adminContext(deps, req), deps.webhooks, checkTarget);

/** Adding, listing, showing and changing endpoints. */
function endpointRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const postWebhooks = adminRoute('webhooks', 'Add a webhook endpoint (its secret is shown once)', {
    params: OrgParams,
    body: W.CreateWebhook,
    status: 201,
    answer: WebhookWithSecret,
    description:
      'The URL must be https:// on a public address (checked again at every connection). The answer carries the signing secret, shown only here and on rotate.',
  });
  admin.post(base, postWebhooks.options, async (req, reply) => {
    const { params, body } = postWebhooks.read(req);
    return reply.code(201).send(await serviceOf(deps, req).create(params.org_id, body));
  });
  listRoute(admin, base, 'webhooks', "List an organization's webhook endpoints, oldest first", {
    doc: { params: OrgParams, query: PageQuery, answer: WebhookItem },
    rows: async ({ params, after, take }) => {
      const rows = await deps.queries.webhooks.listEndpoints(params.org_id, { limit: take, after });
      // One clock reading for the page: every endpoint is shown as of the same instant.
      const nowMs = deps.clock.now();
      return rows.map((e) => ({ e, nowMs }));
    },
    keyOf: (r) => r.e.id,
    view: (r) => webhookView(r.e, r.nowMs),
  });
  const getWebhooksByWebhookId = adminRoute('webhooks', 'Show a webhook endpoint', {
    params: W.WebhookParams,
    answer: WebhookItem,
  });
  admin.get(one, getWebhooksByWebhookId.options, async (req) => {
    const { params } = getWebhooksByWebhookId.read(req);
    return webhookView(
      await serviceOf(deps, req).find(params.org_id, params.webhook_id),
      deps.clock.now(),
    );
  });
  const patchWebhooksByWebhookId = adminRoute('webhooks', 'Change a webhook endpoint', {
    params: W.WebhookParams,
    body: W.UpdateWebhook,
    answer: WebhookItem,
  });
  admin.patch(one, patchWebhooksByWebhookId.options, async (req) => {
    const { params, body } = patchWebhooksByWebhookId.read(req);
    return serviceOf(deps, req).update(params.org_id, params.webhook_id, body);
  });
}

/** Disabling, enabling, rotating the secret of and deleting an endpoint. */
function endpointActionRoutes(admin: FastifyInstance, deps: AppDeps): void {
  for (const [action, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    const postWebhookToggle = adminRoute(
      'webhooks',
      enabled
        ? 'Enable a webhook endpoint (its failure count starts again)'
        : 'Disable a webhook endpoint: nothing more is delivered to it',
      { params: W.WebhookParams, answer: WebhookItem },
    );
    admin.post(`${one}/${action}`, postWebhookToggle.options, async (req) => {
      const { params } = postWebhookToggle.read(req);
      return serviceOf(deps, req).update(params.org_id, params.webhook_id, { enabled });
    });
  }
  const postWebhooksByWebhookIdRotate = adminRoute(
    'webhooks',
    'Rotate the signing secret (the new one is shown once)',
    {
      params: W.WebhookParams,
      body: W.RotateWebhook,
      bodyOptional: true,
      status: 201,
      answer: WebhookWithSecret,
      description:
        'The new secret signs at once; the old one signs beside it for `grace_seconds` (default a day).',
    },
  );
  admin.post(`${one}/rotate`, postWebhooksByWebhookIdRotate.options, async (req, reply) => {
    const { params, body } = postWebhooksByWebhookIdRotate.read(req);
    const grace = body?.grace_seconds ?? 86_400;
    return reply
      .code(201)
      .send(await serviceOf(deps, req).rotate(params.org_id, params.webhook_id, grace));
  });
  const deleteWebhooksByWebhookId = adminRoute(
    'webhooks',
    'Delete a webhook endpoint with its deliveries',
    { params: W.WebhookParams, answer: WebhookDeleted },
  );
  admin.delete(one, deleteWebhooksByWebhookId.options, async (req) => {
    const { params } = deleteWebhooksByWebhookId.read(req);
    return serviceOf(deps, req).remove(params.org_id, params.webhook_id);
  });
}

/** An endpoint's deliveries and attempts, and replaying them. */
function deliveryRoutes(admin: FastifyInstance, deps: AppDeps): void {
  listRoute(
    admin,
    `${one}/deliveries`,
    'webhooks',
    "An endpoint's deliveries (one per event), newest first",
    {
      doc: { params: W.WebhookParams, query: W.DeliveriesQuery, answer: DeliveryItem },
      owner: ({ params }, req) => serviceOf(deps, req).find(params.org_id, params.webhook_id),
      rows: ({ params, query, after, take }) =>
        deps.queries.webhooks.listDeliveries(params.org_id, params.webhook_id, {
          state: query.state,
          limit: take,
          before: after,
        }),
      keyOf: (r) => r.d.id,
      view: ({ d, type }) => ({
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
      }),
    },
  );
  const getWebhooksByWebhookIdAttempts = adminRoute(
    'webhooks',
    "An endpoint's delivery attempts, newest first (the last `limit`)",
    {
      params: W.WebhookParams,
      query: W.AttemptsQuery,
      answer: Type.Object({ attempts: Type.Array(WebhookAttemptItem) }),
    },
  );
  admin.get(`${one}/attempts`, getWebhooksByWebhookIdAttempts.options, async (req) => {
    const { params, query } = getWebhooksByWebhookIdAttempts.read(req);
    await serviceOf(deps, req).find(params.org_id, params.webhook_id);
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
}

/** Sending an event again, or every failed delivery since a time. */
function replayRoute(admin: FastifyInstance, deps: AppDeps): void {
  const postWebhooksByWebhookIdReplay = adminRoute(
    'webhooks',
    'Send an event again, or every failed delivery since a time',
    {
      params: W.WebhookParams,
      body: W.ReplayWebhook,
      status: 202,
      answer: WebhookReplayQueued,
      description: 'Give exactly one of `event_id` and `since`. An unknown event is 404.',
    },
  );
  admin.post(`${one}/replay`, postWebhooksByWebhookIdReplay.options, async (req, reply) => {
    const { params, body } = postWebhooksByWebhookIdReplay.read(req);
    if ((body.event_id === undefined) === (body.since === undefined)) {
      throw errors.field(['body'], 'give exactly one of event_id and since', body);
    }
    const what = body.event_id ? { eventId: body.event_id } : { since: new Date(body.since!) };
    const queued = await serviceOf(deps, req).replay(params.org_id, params.webhook_id, what, body);
    return reply.code(202).send({ webhook_id: params.webhook_id, queued });
  });
}
