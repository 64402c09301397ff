import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import {
  addCampaignNumbers,
  type CampaignInput,
  createCampaign,
  showCampaign,
  updateCampaign,
} from '../../domain/admin/campaigns.js';
import {
  type AdminContext,
  createOrg,
  getOrg,
  issueKey,
  type KeyInput,
  type OrgInput,
  orgView,
  revokeKey,
  rotateKey,
  setKeyScopes,
  updateOrg,
} from '../../domain/admin/orgs-keys.js';
import { errors } from '../../errors.js';
import { validated, validateRequest } from '../../http/validate.js';
import { listAudit } from '../../store/repos/audit.js';
import { recordInboundCall } from '../../store/repos/calls.js';
import { pageOf } from '../../store/repos/paging.js';
import { activityListRoutes } from './activity-routes.js';
import { consentRoutes } from './consents-routes.js';
import { exportRoutes } from './exports.js';
import { configListRoutes } from './list-routes.js';
import { adminDoc } from './openapi.js';
import { poolRoutes } from './pool-routes.js';
import * as S from './schemas.js';
import { suppressionRoutes } from './suppression-routes.js';
import { touchRoutes } from './touches-routes.js';
import * as V from './view-schemas.js';
import { webhookRoutes } from './webhooks-routes.js';

type OrgP = { org_id: string };
type KeyP = { key_id: string };
type CampaignP = { org_id: string; code: string };
type AuditQueryParams = {
  limit: number;
  action?: string;
  subject_id?: string;
  since?: string;
  until?: string;
  cursor?: string;
};

function sameToken(given: string | undefined, token: string): boolean {
  const m = given ? /^bearer +(\S+) *$/i.exec(given) : null;
  const a = Buffer.from(m?.[1] ?? '');
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The provider-support API (contract §6). Every row writes its audit record in its own transaction. */
export function adminRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  adminToken: string,
  metricsToken: string = adminToken,
): void {
  const ctx = (request: FastifyRequest): AdminContext<AppDeps['repos']> => ({
    repos: deps.repos,
    keyring: deps.keyring,
    now: () => new Date(deps.clock.now()),
    requestId: request.id,
  });

  app.register(async (admin) => {
    admin.addHook('onRequest', async (request) => {
      if (!sameToken(request.headers.authorization, adminToken)) throw errors.invalidAdminToken();
    });

    admin.post(
      '/admin/orgs',
      {
        schema: adminDoc('organizations', 'Create an organization', {
          body: S.CreateOrg,
          status: 201,
        }),
        preHandler: validateRequest({ body: S.CreateOrg }),
      },
      async (req, reply) => {
        const { body } = validated<unknown, OrgInput & { name: string }>(req);
        return reply.code(201).send(await createOrg(ctx(req), body));
      },
    );
    admin.get(
      '/admin/orgs/:org_id',
      {
        schema: adminDoc('organizations', 'Show an organization', {
          params: S.OrgIdParams,
          answer: V.OrgItem,
        }),
        preHandler: validateRequest({ params: S.OrgIdParams }),
      },
      async (req) => {
        const { params } = validated<OrgP, unknown>(req);
        return orgView(await getOrg(deps.repos, params.org_id));
      },
    );
    admin.patch(
      '/admin/orgs/:org_id',
      {
        schema: adminDoc('organizations', 'Change an organization', {
          params: S.OrgIdParams,
          body: S.UpdateOrg,
        }),
        preHandler: validateRequest({ params: S.OrgIdParams, body: S.UpdateOrg }),
      },
      async (req) => {
        const { params, body } = validated<OrgP, OrgInput>(req);
        return updateOrg(ctx(req), params.org_id, body);
      },
    );

    admin.post(
      '/admin/orgs/:org_id/keys',
      {
        schema: adminDoc('keys', 'Issue an API key (the key is shown once)', {
          params: S.OrgIdParams,
          body: S.CreateKey,
          status: 201,
        }),
        preHandler: validateRequest({ params: S.OrgIdParams, body: S.CreateKey }),
      },
      async (req, reply) => {
        const { params, body } = validated<OrgP, KeyInput>(req);
        return reply.code(201).send(await issueKey(ctx(req), params.org_id, body));
      },
    );
    admin.patch(
      '/admin/keys/:key_id',
      {
        schema: adminDoc('keys', 'Replace a key’s scopes', {
          params: S.KeyIdParams,
          body: S.UpdateKey,
        }),
        preHandler: validateRequest({ params: S.KeyIdParams, body: S.UpdateKey }),
      },
      async (req) => {
        const { params, body } = validated<KeyP, { scopes: string[] }>(req);
        return setKeyScopes(ctx(req), params.key_id, body.scopes);
      },
    );
    admin.post(
      '/admin/keys/:key_id/revoke',
      {
        schema: adminDoc('keys', 'Revoke a key now', { params: S.KeyIdParams }),
        preHandler: validateRequest({ params: S.KeyIdParams }),
      },
      async (req) => {
        const { params } = validated<KeyP, unknown>(req);
        return revokeKey(ctx(req), params.key_id);
      },
    );
    admin.post(
      '/admin/keys/:key_id/rotate',
      {
        schema: adminDoc(
          'keys',
          'Issue a replacement key; the old one stops after the grace period',
          {
            params: S.KeyIdParams,
            body: S.RotateKey,
            status: 201,
          },
        ),
        preHandler: validateRequest({
          params: S.KeyIdParams,
          body: S.RotateKey,
          bodyOptional: true,
        }),
      },
      async (req, reply) => {
        const { params, body } = validated<KeyP, { grace_seconds: number }>(req);
        return reply.code(201).send(await rotateKey(ctx(req), params.key_id, body.grace_seconds));
      },
    );

    admin.post(
      '/admin/orgs/:org_id/campaigns',
      {
        schema: adminDoc('campaigns', 'Create a campaign with its number pool', {
          params: S.OrgIdParams,
          body: S.CreateCampaign,
          status: 201,
        }),
        preHandler: validateRequest({ params: S.OrgIdParams, body: S.CreateCampaign }),
      },
      async (req, reply) => {
        const { params, body } = validated<
          OrgP,
          CampaignInput & { code: string; name: string; numbers: string[] }
        >(req);
        return reply.code(201).send(await createCampaign(ctx(req), params.org_id, body));
      },
    );
    admin.get(
      '/admin/orgs/:org_id/campaigns/:code',
      {
        schema: adminDoc('campaigns', 'Show a campaign with its numbers', {
          params: S.CampaignParams,
        }),
        preHandler: validateRequest({ params: S.CampaignParams }),
      },
      async (req) => {
        const { params } = validated<CampaignP, unknown>(req);
        return showCampaign(ctx(req), params.org_id, params.code);
      },
    );
    admin.patch(
      '/admin/orgs/:org_id/campaigns/:code',
      {
        schema: adminDoc('campaigns', 'Change a campaign', {
          params: S.CampaignParams,
          body: S.UpdateCampaign,
        }),
        preHandler: validateRequest({ params: S.CampaignParams, body: S.UpdateCampaign }),
      },
      async (req) => {
        const { params, body } = validated<CampaignP, CampaignInput>(req);
        return updateCampaign(ctx(req), params.org_id, params.code, body);
      },
    );
    admin.post(
      '/admin/orgs/:org_id/campaigns/:code/numbers',
      {
        schema: adminDoc('campaigns', 'Add numbers to a campaign’s pool', {
          params: S.CampaignParams,
          body: S.AddNumbers,
        }),
        preHandler: validateRequest({ params: S.CampaignParams, body: S.AddNumbers }),
      },
      async (req) => {
        const { params, body } = validated<CampaignP, { numbers: string[] }>(req);
        return addCampaignNumbers(ctx(req), params.org_id, params.code, body.numbers);
      },
    );

    admin.post(
      '/admin/orgs/:org_id/calls',
      {
        schema: adminDoc('calls', 'Record an inbound call (as a carrier would)', {
          params: S.OrgIdParams,
          body: S.RecordCall,
          status: 201,
        }),
        preHandler: validateRequest({ params: S.OrgIdParams, body: S.RecordCall }),
      },
      async (req, reply) => {
        const { params, body } = validated<OrgP, { to: string; from: string; started_at?: string }>(
          req,
        );
        const c = ctx(req);
        const now = c.now();
        await getOrg(deps.repos, params.org_id);
        const call = await deps.store.db.transaction((tx) =>
          recordInboundCall(
            tx,
            params.org_id,
            {
              to: body.to,
              from: body.from,
              startedAt: body.started_at ? new Date(body.started_at) : now,
            },
            'admin',
            req.id,
            now,
          ),
        );
        if (!call) throw errors.numberNotFound();
        return reply.code(201).send({
          call_id: call.callId,
          campaign_code: call.campaignCode,
          dni_session_id: call.attribution.sessionId,
          attribution: call.attribution.kind,
          ambiguous: call.attribution.ambiguous,
        });
      },
    );

    poolRoutes(admin, deps);
    consentRoutes(admin, deps);
    suppressionRoutes(admin, deps);
    touchRoutes(admin, deps);
    configListRoutes(admin, deps);
    activityListRoutes(admin, deps);
    webhookRoutes(admin, deps, ctx);

    admin.get(
      '/admin/orgs/:org_id/audit',
      {
        schema: adminDoc('audit', 'An organization’s audit log, newest first', {
          params: S.OrgIdParams,
          querystring: S.AuditQuery,
        }),
        preHandler: validateRequest({ params: S.OrgIdParams, query: S.AuditQuery }),
      },
      async (req) => {
        const { params, query } = validated<OrgP, unknown, AuditQueryParams>(req);
        await getOrg(deps.repos, params.org_id);
        // One row past the page says whether another page exists.
        const rows = await listAudit(deps.store.db, params.org_id, {
          limit: query.limit + 1,
          action: query.action,
          subjectId: query.subject_id,
          since: query.since ? new Date(query.since) : undefined,
          until: query.until ? new Date(query.until) : undefined,
          before: query.cursor ? Number(query.cursor) : undefined,
        });
        const { items, nextCursor } = pageOf(rows, query.limit, (r) => String(r.seq));
        return {
          entries: items.map((r) => ({
            id: r.id,
            at: r.at.toISOString(),
            actor: r.actor,
            action: r.action,
            subject_type: r.subjectType,
            subject_id: r.subjectId,
            detail: r.detail,
            request_id: r.requestId,
          })),
          next_cursor: nextCursor,
        };
      },
    );

    exportRoutes(admin, deps);
  });

  // Labels name every tenant's organization and campaign ids: a scrape needs a token too.
  app.get('/metrics', async (req, reply) => {
    if (!sameToken(req.headers.authorization, metricsToken)) throw errors.invalidMetricsToken();
    const text = await deps.metrics.registry.metrics();
    return reply.type(deps.metrics.registry.contentType).send(text);
  });
  app.get('/healthz', async () => {
    await deps.store.ping();
    return { status: 'ok' };
  });
}
