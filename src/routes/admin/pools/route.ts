import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { poolHealthView } from '../../../domain/dni/pool-health.js';
import { errors } from '../../../errors.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { CampaignParams } from '../shared/params.js';
import { PoolHealth, PoolQuery } from './schema.js';

const DAY_MS = 86_400_000;

/** Pool health: how busy a campaign's pool is, how accurate its attribution, how many numbers it needs. */
export function poolRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const getCampaignsByCodePool = adminRoute(
    'campaigns',
    'Pool health, attribution accuracy and recommended size',
    {
      params: CampaignParams,
      query: PoolQuery,
      answer: PoolHealth,
      description:
        'Numbers, held now, peak held numbers per hour, sessions by outcome and calls by attribution rule over the last `days`; the estimated accuracy and the pool size the sizing model (docs/pool-sizing.md) recommends for `target`.',
    },
  );
  admin.get(`${ORG_PREFIX}/campaigns/:code/pool`, getCampaignsByCodePool.options, async (req) => {
    const { params, query } = getCampaignsByCodePool.read(req);
    const c = await deps.queries.config.findCampaign(params.org_id, params.code);
    if (!c) throw errors.campaignNotFound();
    const now = new Date(deps.clock.now());
    const since = new Date(now.getTime() - query.days * DAY_MS);
    const observed = await deps.queries.pool.observePool(c.id, since, now);
    return poolHealthView(params.code, observed, { ...query, since, now });
  });
}
