import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import {
  addCampaignNumbers,
  createCampaign,
  showCampaign,
  updateCampaign,
} from '../../../domain/admin/campaigns.js';
import { campaignSummary, numberView } from '../../../domain/admin/views.js';
import { normalizeE164 } from '../../../domain/phone/e164.js';
import { errors } from '../../../errors.js';
import { adminContext } from '../shared/context.js';
import { PageQuery } from '../shared/list-query.js';
import { listRoute, opaqueCursor } from '../shared/list-route.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { CampaignParams, OrgIdParams } from '../shared/params.js';
import {
  AddNumbers,
  CampaignDetail,
  CampaignItem,
  CreateCampaign,
  NumberItem,
  NumberListQuery,
  NumberParams,
  UpdateCampaign,
} from './schema.js';

const E164_SHAPE = /^\+[1-9][0-9]{1,14}$/;

/** Campaigns and their number pools (under the org-scoped plugin). */
export function campaignRoutes(scope: FastifyInstance, deps: AppDeps): void {
  campaignWriteRoutes(scope, deps);
  campaignReadRoutes(scope, deps);
}

/** Creating, showing and changing a campaign, and adding numbers to its pool. */
function campaignWriteRoutes(scope: FastifyInstance, deps: AppDeps): void {
  const postCampaigns = adminRoute('campaigns', 'Create a campaign with its number pool', {
    params: OrgIdParams,
    body: CreateCampaign,
    status: 201,
    answer: CampaignDetail,
    errors: [409],
    description: 'A code the organization already uses, or a number another campaign holds: 409.',
  });
  scope.post(`${ORG_PREFIX}/campaigns`, postCampaigns.options, async (req, reply) => {
    const { params, body } = postCampaigns.read(req);
    const campaign = await createCampaign(adminContext(deps, req), params.org_id, body);
    return reply.code(201).send(campaign);
  });
  const getCampaignsByCode = adminRoute('campaigns', 'Show a campaign with its numbers', {
    params: CampaignParams,
    answer: CampaignDetail,
  });
  scope.get(`${ORG_PREFIX}/campaigns/:code`, getCampaignsByCode.options, async (req) => {
    const { params } = getCampaignsByCode.read(req);
    return showCampaign(adminContext(deps, req), params.org_id, params.code);
  });
  const patchCampaignsByCode = adminRoute('campaigns', 'Change a campaign', {
    params: CampaignParams,
    body: UpdateCampaign,
    answer: CampaignDetail,
    errors: [409],
  });
  scope.patch(`${ORG_PREFIX}/campaigns/:code`, patchCampaignsByCode.options, async (req) => {
    const { params, body } = patchCampaignsByCode.read(req);
    return updateCampaign(adminContext(deps, req), params.org_id, params.code, body);
  });
  const postCampaignsByCodeNumbers = adminRoute('campaigns', 'Add numbers to a campaign’s pool', {
    params: CampaignParams,
    body: AddNumbers,
    answer: CampaignDetail,
    errors: [409],
  });
  scope.post(
    `${ORG_PREFIX}/campaigns/:code/numbers`,
    postCampaignsByCodeNumbers.options,
    async (req) => {
      const { params, body } = postCampaignsByCodeNumbers.read(req);
      const ctx = adminContext(deps, req);
      return addCampaignNumbers(ctx, params.org_id, params.code, body.numbers);
    },
  );
}

/** The campaigns of an organization, a campaign's numbers and one number, with their holders. */
function campaignReadRoutes(scope: FastifyInstance, deps: AppDeps): void {
  const q = deps.queries.config;
  const now = () => new Date(deps.clock.now());
  const campaignOf = async (orgId: string, code: string) => {
    const c = await q.findCampaign(orgId, code);
    if (!c) throw errors.campaignNotFound();
    return c;
  };

  listRoute(
    scope,
    `${ORG_PREFIX}/campaigns`,
    'campaigns',
    "List an organization's campaigns with their pool size",
    {
      doc: { params: OrgIdParams, query: PageQuery, answer: CampaignItem },
      rows: ({ params, after, take }) => q.listCampaigns(params.org_id, { limit: take, after }),
      keyOf: (r) => r.campaign.id,
      view: campaignSummary,
    },
  );

  listRoute(
    scope,
    `${ORG_PREFIX}/campaigns/:code/numbers`,
    'campaigns',
    "List a campaign's numbers with their current holder",
    {
      doc: {
        params: CampaignParams,
        query: NumberListQuery,
        answer: NumberItem,
        description:
          'In number order. `holder` is the DNI session holding the number now (null when free); `held_until` is when it frees.',
      },
      cursor: opaqueCursor(E164_SHAPE),
      rows: async ({ params, query, after, take }) => {
        const c = await campaignOf(params.org_id, params.code);
        const filter = { role: query.role, state: query.state, now: now() };
        return q.listNumbers(c.id, { limit: take, after, ...filter });
      },
      keyOf: (r) => r.number.e164,
      view: numberView,
    },
  );

  const getCampaignsByCodeNumbersByE164 = adminRoute(
    'campaigns',
    'Show one number of a campaign with its current holder',
    { params: NumberParams, answer: NumberItem },
  );
  scope.get(
    `${ORG_PREFIX}/campaigns/:code/numbers/:e164`,
    getCampaignsByCodeNumbersByE164.options,
    async (req) => {
      const { params } = getCampaignsByCodeNumbersByE164.read(req);
      const c = await campaignOf(params.org_id, params.code);
      const n = await q.findNumber(c.id, normalizeE164(params.e164) ?? params.e164, now());
      if (!n) throw errors.numberNotFound();
      return numberView(n);
    },
  );
}
