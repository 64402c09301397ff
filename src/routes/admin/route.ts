import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../deps.js';
import { recordAdminCall } from '../../domain/admin/calls.js';
import {
  addCampaignNumbers,
  createCampaign,
  showCampaign,
  updateCampaign,
} from '../../domain/admin/campaigns.js';
import {
  type AdminContext,
  createOrg,
  issueKey,
  orgView,
  revokeKey,
  rotateKey,
  setKeyScopes,
  updateOrg,
} from '../../domain/admin/orgs-keys.js';
import { errors } from '../../errors.js';
import { credentialOf } from '../../http/auth.js';
import { activityListRoutes } from './activity/route.js';
import { AuditItem, AuditQuery } from './audit/schema.js';
import { buyerRoutes } from './buyers/route.js';
import { CallRecorded, RecordCall } from './calls/schema.js';
import { AddNumbers, CampaignDetail, CreateCampaign, UpdateCampaign } from './campaigns/schema.js';
import { consentRoutes } from './consents/route.js';
import { consoleUserRoutes } from './console-users/route.js';
import { conversionRoutes } from './conversions/route.js';
import { exportRoutes } from './exports/route.js';
import {
  CreateKey,
  KeyIdParams,
  KeyIssued,
  KeyItem,
  KeyRotated,
  RotateKey,
  UpdateKey,
} from './keys/schema.js';
import { configListRoutes, orgConfigListRoutes } from './list-routes.js';
import { CreateOrg, OrgItem, UpdateOrg } from './orgs/schema.js';
import { poolRoutes } from './pools/route.js';
import { readinessRoute } from './readiness/route.js';
import { reportRoutes } from './reports/route.js';
import { listRoute, plainCursor } from './shared/list-route.js';
import { adminRoute } from './shared/openapi.js';
import { ORG_PREFIX, orgOf, orgScoped } from './shared/org-scope.js';
import { CampaignParams, OrgIdParams } from './shared/params.js';
import { suppressionRoutes } from './suppression/route.js';
import { Health } from './system/schema.js';
import { touchRoutes } from './touches/route.js';
import { webhookRoutes } from './webhooks/route.js';

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
      const header = credentialOf(request);
      if (header === null || !sameToken(header, adminToken)) throw errors.invalidAdminToken();
    });

    const postOrgs = adminRoute('organizations', 'Create an organization', {
      body: CreateOrg,
      status: 201,
      answer: OrgItem,
    });
    admin.post('/admin/orgs', postOrgs.options, async (req, reply) => {
      const { body } = postOrgs.read(req);
      return reply.code(201).send(await createOrg(ctx(req), body));
    });
    const patchKeysByKeyId = adminRoute('keys', 'Replace a key’s scopes', {
      params: KeyIdParams,
      body: UpdateKey,
      answer: KeyItem,
    });
    admin.patch('/admin/keys/:key_id', patchKeysByKeyId.options, async (req) => {
      const { params, body } = patchKeysByKeyId.read(req);
      return setKeyScopes(ctx(req), params.key_id, body.scopes);
    });
    const postKeysByKeyIdRevoke = adminRoute('keys', 'Revoke a key now', {
      params: KeyIdParams,
      answer: KeyItem,
    });
    admin.post('/admin/keys/:key_id/revoke', postKeysByKeyIdRevoke.options, async (req) => {
      const { params } = postKeysByKeyIdRevoke.read(req);
      return revokeKey(ctx(req), params.key_id);
    });
    const postKeysByKeyIdRotate = adminRoute(
      'keys',
      'Issue a replacement key; the old one stops after the grace period',
      {
        params: KeyIdParams,
        body: RotateKey,
        bodyOptional: true,
        status: 201,
        answer: KeyRotated,
        errors: [409],
      },
    );
    admin.post('/admin/keys/:key_id/rotate', postKeysByKeyIdRotate.options, async (req, reply) => {
      const { params, body } = postKeysByKeyIdRotate.read(req);
      return reply.code(201).send(await rotateKey(ctx(req), params.key_id, body.grace_seconds));
    });

    configListRoutes(admin, deps);
    consoleUserRoutes(admin, deps);

    orgScoped(admin, deps.queries, (scope) => {
      const getOrgsByOrgId = adminRoute('organizations', 'Show an organization', {
        params: OrgIdParams,
        answer: OrgItem,
      });
      scope.get(ORG_PREFIX, getOrgsByOrgId.options, async (req) => {
        getOrgsByOrgId.read(req);
        return orgView(orgOf(req));
      });
      const patchOrgsByOrgId = adminRoute('organizations', 'Change an organization', {
        params: OrgIdParams,
        body: UpdateOrg,
        answer: OrgItem,
      });
      scope.patch(ORG_PREFIX, patchOrgsByOrgId.options, async (req) => {
        const { params, body } = patchOrgsByOrgId.read(req);
        return updateOrg(ctx(req), params.org_id, body);
      });
      const postKeys = adminRoute('keys', 'Issue an API key (the key is shown once)', {
        params: OrgIdParams,
        body: CreateKey,
        status: 201,
        answer: KeyIssued,
      });
      scope.post(`${ORG_PREFIX}/keys`, postKeys.options, async (req, reply) => {
        const { params, body } = postKeys.read(req);
        return reply.code(201).send(await issueKey(ctx(req), params.org_id, body));
      });

      const postCampaigns = adminRoute('campaigns', 'Create a campaign with its number pool', {
        params: OrgIdParams,
        body: CreateCampaign,
        status: 201,
        answer: CampaignDetail,
        errors: [409],
        description:
          'A code the organization already uses, or a number another campaign holds: 409.',
      });
      scope.post(`${ORG_PREFIX}/campaigns`, postCampaigns.options, async (req, reply) => {
        const { params, body } = postCampaigns.read(req);
        return reply.code(201).send(await createCampaign(ctx(req), params.org_id, body));
      });
      const getCampaignsByCode = adminRoute('campaigns', 'Show a campaign with its numbers', {
        params: CampaignParams,
        answer: CampaignDetail,
      });
      scope.get(`${ORG_PREFIX}/campaigns/:code`, getCampaignsByCode.options, async (req) => {
        const { params } = getCampaignsByCode.read(req);
        return showCampaign(ctx(req), params.org_id, params.code);
      });
      const patchCampaignsByCode = adminRoute('campaigns', 'Change a campaign', {
        params: CampaignParams,
        body: UpdateCampaign,
        answer: CampaignDetail,
        errors: [409],
      });
      scope.patch(`${ORG_PREFIX}/campaigns/:code`, patchCampaignsByCode.options, async (req) => {
        const { params, body } = patchCampaignsByCode.read(req);
        return updateCampaign(ctx(req), params.org_id, params.code, body);
      });
      const postCampaignsByCodeNumbers = adminRoute(
        'campaigns',
        'Add numbers to a campaign’s pool',
        {
          params: CampaignParams,
          body: AddNumbers,
          answer: CampaignDetail,
          errors: [409],
        },
      );
      scope.post(
        `${ORG_PREFIX}/campaigns/:code/numbers`,
        postCampaignsByCodeNumbers.options,
        async (req) => {
          const { params, body } = postCampaignsByCodeNumbers.read(req);
          return addCampaignNumbers(ctx(req), params.org_id, params.code, body.numbers);
        },
      );

      const postCalls = adminRoute('calls', 'Record an inbound call (as a carrier would)', {
        params: OrgIdParams,
        body: RecordCall,
        status: 201,
        answer: CallRecorded,
      });
      scope.post(`${ORG_PREFIX}/calls`, postCalls.options, async (req, reply) => {
        const { params, body } = postCalls.read(req);
        return reply.code(201).send(await recordAdminCall(ctx(req), params.org_id, body));
      });

      poolRoutes(scope, deps);
      consentRoutes(scope, deps);
      suppressionRoutes(scope, deps);
      touchRoutes(scope, deps);
      reportRoutes(scope, deps);
      orgConfigListRoutes(scope, deps);
      activityListRoutes(scope, deps);
      webhookRoutes(scope, deps, ctx);
      conversionRoutes(scope, deps);
      buyerRoutes(scope, deps);

      // The cursor is the last entry's sequence number as it is (the query schema checks its form).
      listRoute(
        scope,
        `${ORG_PREFIX}/audit`,
        'audit',
        'An organization’s audit log, newest first',
        {
          doc: { params: OrgIdParams, query: AuditQuery, answer: AuditItem },
          cursor: plainCursor,
          rows: ({ params, query, after, take }) =>
            deps.queries.audit.listAudit(params.org_id, {
              limit: take,
              action: query.action,
              subjectId: query.subject_id,
              since: query.since ? new Date(query.since) : undefined,
              until: query.until ? new Date(query.until) : undefined,
              before: after === undefined ? undefined : Number(after),
            }),
          keyOf: (r) => String(r.seq),
          view: (r) => ({
            id: r.id,
            at: r.at.toISOString(),
            actor: r.actor,
            action: r.action,
            subject_type: r.subjectType,
            subject_id: r.subjectId,
            detail: r.detail,
            request_id: r.requestId,
          }),
        },
      );

      exportRoutes(scope, deps);
    });
    readinessRoute(admin, deps);
  });

  // Labels name every tenant's organization and campaign ids: a scrape needs a token too.
  const metrics = adminRoute('system', 'Prometheus metrics', {
    answer: null,
    media: { 'text/plain': Type.String({ description: 'The Prometheus text format' }) },
    security: [{ metricsToken: [] }],
    description:
      'Labels name every organization and campaign: a scrape needs METRICS_TOKEN (or the admin token when it is not set). A wrong token is 401 `invalid_metrics_token`.',
    extraResponses: {
      401: {
        description: 'No metrics token, or not this server’s',
        schema: Type.Object(
          { detail: Type.Literal('invalid_metrics_token') },
          { additionalProperties: false },
        ),
        headers: ['WWW-Authenticate'],
      },
    },
  });
  app.get('/metrics', metrics.options, async (req, reply) => {
    const header = credentialOf(req);
    if (header === null || !sameToken(header, metricsToken)) throw errors.invalidMetricsToken();
    const text = await deps.metrics.registry.metrics();
    return reply.type(deps.metrics.registry.contentType).send(text);
  });
  const health = adminRoute('system', 'Liveness: the process answers and the store pings', {
    answer: Health,
    security: [],
  });
  app.get('/healthz', health.options, async () => {
    await deps.ping();
    return { status: 'ok' as const };
  });
}
