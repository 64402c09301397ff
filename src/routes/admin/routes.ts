import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import {
  addCampaignNumbers,
  createCampaign,
  showCampaign,
  updateCampaign,
} from '../../domain/admin/campaigns.js';
import {
  type AdminContext,
  createOrg,
  getOrg,
  issueKey,
  orgView,
  revokeKey,
  rotateKey,
  setKeyScopes,
  updateOrg,
} from '../../domain/admin/orgs-keys.js';
import { errors } from '../../errors.js';
import { listAudit } from '../../store/repos/audit.js';
import { recordInboundCall } from '../../store/repos/calls.js';
import { pageOf } from '../../store/repos/paging.js';
import { activityListRoutes } from './activity-routes.js';
import { consentRoutes } from './consents-routes.js';
import { consoleUserRoutes } from './console-users-routes.js';
import { exportRoutes } from './exports.js';
import { configListRoutes } from './list-routes.js';
import { adminRoute } from './openapi.js';
import { poolRoutes } from './pool-routes.js';
import { readinessRoute } from './readiness-route.js';
import { reportRoutes } from './report-routes.js';
import * as S from './schemas.js';
import { suppressionRoutes } from './suppression-routes.js';
import { touchRoutes } from './touches-routes.js';
import * as V from './view-schemas.js';
import { webhookRoutes } from './webhooks-routes.js';

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

    const postOrgs = adminRoute('organizations', 'Create an organization', {
      body: S.CreateOrg,
      status: 201,
    });
    admin.post('/admin/orgs', postOrgs.options, async (req, reply) => {
      const { body } = postOrgs.read(req);
      return reply.code(201).send(await createOrg(ctx(req), body));
    });
    const getOrgsByOrgId = adminRoute('organizations', 'Show an organization', {
      params: S.OrgIdParams,
      answer: V.OrgItem,
    });
    admin.get('/admin/orgs/:org_id', getOrgsByOrgId.options, async (req) => {
      const { params } = getOrgsByOrgId.read(req);
      return orgView(await getOrg(deps.repos, params.org_id));
    });
    const patchOrgsByOrgId = adminRoute('organizations', 'Change an organization', {
      params: S.OrgIdParams,
      body: S.UpdateOrg,
    });
    admin.patch('/admin/orgs/:org_id', patchOrgsByOrgId.options, async (req) => {
      const { params, body } = patchOrgsByOrgId.read(req);
      return updateOrg(ctx(req), params.org_id, body);
    });

    const postKeys = adminRoute('keys', 'Issue an API key (the key is shown once)', {
      params: S.OrgIdParams,
      body: S.CreateKey,
      status: 201,
    });
    admin.post('/admin/orgs/:org_id/keys', postKeys.options, async (req, reply) => {
      const { params, body } = postKeys.read(req);
      return reply.code(201).send(await issueKey(ctx(req), params.org_id, body));
    });
    const patchKeysByKeyId = adminRoute('keys', 'Replace a key’s scopes', {
      params: S.KeyIdParams,
      body: S.UpdateKey,
    });
    admin.patch('/admin/keys/:key_id', patchKeysByKeyId.options, async (req) => {
      const { params, body } = patchKeysByKeyId.read(req);
      return setKeyScopes(ctx(req), params.key_id, body.scopes);
    });
    const postKeysByKeyIdRevoke = adminRoute('keys', 'Revoke a key now', { params: S.KeyIdParams });
    admin.post('/admin/keys/:key_id/revoke', postKeysByKeyIdRevoke.options, async (req) => {
      const { params } = postKeysByKeyIdRevoke.read(req);
      return revokeKey(ctx(req), params.key_id);
    });
    const postKeysByKeyIdRotate = adminRoute(
      'keys',
      'Issue a replacement key; the old one stops after the grace period',
      { params: S.KeyIdParams, body: S.RotateKey, bodyOptional: true, status: 201 },
    );
    admin.post('/admin/keys/:key_id/rotate', postKeysByKeyIdRotate.options, async (req, reply) => {
      const { params, body } = postKeysByKeyIdRotate.read(req);
      return reply.code(201).send(await rotateKey(ctx(req), params.key_id, body.grace_seconds));
    });

    const postCampaigns = adminRoute('campaigns', 'Create a campaign with its number pool', {
      params: S.OrgIdParams,
      body: S.CreateCampaign,
      status: 201,
    });
    admin.post('/admin/orgs/:org_id/campaigns', postCampaigns.options, async (req, reply) => {
      const { params, body } = postCampaigns.read(req);
      return reply.code(201).send(await createCampaign(ctx(req), params.org_id, body));
    });
    const getCampaignsByCode = adminRoute('campaigns', 'Show a campaign with its numbers', {
      params: S.CampaignParams,
    });
    admin.get('/admin/orgs/:org_id/campaigns/:code', getCampaignsByCode.options, async (req) => {
      const { params } = getCampaignsByCode.read(req);
      return showCampaign(ctx(req), params.org_id, params.code);
    });
    const patchCampaignsByCode = adminRoute('campaigns', 'Change a campaign', {
      params: S.CampaignParams,
      body: S.UpdateCampaign,
    });
    admin.patch(
      '/admin/orgs/:org_id/campaigns/:code',
      patchCampaignsByCode.options,
      async (req) => {
        const { params, body } = patchCampaignsByCode.read(req);
        return updateCampaign(ctx(req), params.org_id, params.code, body);
      },
    );
    const postCampaignsByCodeNumbers = adminRoute('campaigns', 'Add numbers to a campaign’s pool', {
      params: S.CampaignParams,
      body: S.AddNumbers,
    });
    admin.post(
      '/admin/orgs/:org_id/campaigns/:code/numbers',
      postCampaignsByCodeNumbers.options,
      async (req) => {
        const { params, body } = postCampaignsByCodeNumbers.read(req);
        return addCampaignNumbers(ctx(req), params.org_id, params.code, body.numbers);
      },
    );

    const postCalls = adminRoute('calls', 'Record an inbound call (as a carrier would)', {
      params: S.OrgIdParams,
      body: S.RecordCall,
      status: 201,
    });
    admin.post('/admin/orgs/:org_id/calls', postCalls.options, async (req, reply) => {
      const { params, body } = postCalls.read(req);
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
    });

    poolRoutes(admin, deps);
    consentRoutes(admin, deps);
    suppressionRoutes(admin, deps);
    touchRoutes(admin, deps);
    reportRoutes(admin, deps);
    configListRoutes(admin, deps);
    activityListRoutes(admin, deps);
    webhookRoutes(admin, deps, ctx);
    consoleUserRoutes(admin, deps);

    const getAudit = adminRoute('audit', 'An organization’s audit log, newest first', {
      params: S.OrgIdParams,
      query: S.AuditQuery,
    });
    admin.get('/admin/orgs/:org_id/audit', getAudit.options, async (req) => {
      const { params, query } = getAudit.read(req);
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
    });

    exportRoutes(admin, deps);
    readinessRoute(admin, deps);
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
