import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import {
  type BuyerContext,
  buyerView,
  createBuyer,
  listBuyersWithUsage,
  showBuyer,
  updateBuyer,
} from '../../../domain/routing/buyers.js';
import { type PlanContext, putPlan, showPlan } from '../../../domain/routing/plans.js';
import { errors } from '../../../errors.js';
import { PageQuery } from '../shared/list-query.js';
import { listRoute } from '../shared/list-route.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX, orgOf } from '../shared/org-scope.js';
import { CampaignParams, OrgIdParams } from '../shared/params.js';
import * as B from './schema.js';

const TAG = 'buyers';

/**
 * Buyers and campaign routing plans (contract §11, docs/routing.md), inside the org-scoped
 * plugin (org-scope.ts): an unknown organization is a 404 before these handlers run, and
 * another organization's buyer is a 404 like a missing one.
 */
export function buyerRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const ctx = (req: FastifyRequest | null): BuyerContext & PlanContext => ({
    repos: deps.repos,
    now: new Date(deps.clock.now()),
    requestId: req?.id ?? null,
  });
  const base = `${ORG_PREFIX}/buyers`;
  const one = `${base}/:buyer_id`;

  const create = adminRoute(TAG, 'Add a buyer', {
    params: OrgIdParams,
    body: B.CreateBuyer,
    status: 201,
    answer: B.BuyerItem,
  });
  admin.post(base, create.options, async (req, reply) => {
    const { body } = create.read(req);
    return reply.code(201).send(await createBuyer(ctx(req), orgOf(req), body));
  });

  listRoute(admin, base, TAG, 'The buyers, with what each cap counts now', {
    doc: { params: OrgIdParams, query: PageQuery, answer: B.BuyerItem },
    rows: ({ params, after, take }) =>
      listBuyersWithUsage(ctx(null), params.org_id, take - 1, after),
    keyOf: (r) => r.buyer.id,
    view: (r) => buyerView(r.buyer, r.usage),
  });

  const show = adminRoute(TAG, 'A buyer, with what each cap counts now', {
    params: B.BuyerParams,
    answer: B.BuyerItem,
  });
  admin.get(one, show.options, async (req) => {
    const { params } = show.read(req);
    return showBuyer(ctx(req), params.org_id, params.buyer_id);
  });

  const patch = adminRoute(TAG, 'Change a buyer (schedule, states, caps, payout: replaced whole)', {
    params: B.BuyerParams,
    body: B.UpdateBuyer,
    answer: B.BuyerItem,
  });
  admin.patch(one, patch.options, async (req) => {
    const { params, body } = patch.read(req);
    return updateBuyer(ctx(req), params.org_id, params.buyer_id, body);
  });

  const campaignOf = async (orgId: string, code: string) => {
    const c = await deps.queries.config.findCampaign(orgId, code);
    if (!c) throw errors.campaignNotFound();
    return c;
  };
  const routing = `${ORG_PREFIX}/campaigns/:code/routing`;

  const put = adminRoute(TAG, "Set a campaign's routing plan", {
    params: CampaignParams,
    body: B.PutRouting,
    answer: B.RoutingItem,
  });
  admin.put(routing, put.options, async (req) => {
    const { params, body } = put.read(req);
    const c = await campaignOf(params.org_id, params.code);
    return putPlan(ctx(req), params.org_id, c, body);
  });

  const get = adminRoute(TAG, "A campaign's routing plan (no targets: it has none)", {
    params: CampaignParams,
    answer: B.RoutingItem,
  });
  admin.get(routing, get.options, async (req) => {
    const { params } = get.read(req);
    const c = await campaignOf(params.org_id, params.code);
    return showPlan(ctx(req), params.org_id, c);
  });
}
