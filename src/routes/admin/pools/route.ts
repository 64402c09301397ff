import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { poolHealthView } from '../../../domain/dni/pool-health.js';
import { errors } from '../../../errors.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { CampaignParams } from '../shared/params.js';
import { PoolQuery } from './schema.js';

const DAY_MS = 86_400_000;

const count = Type.Integer({ minimum: 0 });
const ratio = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]);
const time = Type.String({ format: 'date-time' });

/** poolHealthView (src/domain/dni/pool-health.ts). */
const PoolHealth = Type.Object({
  campaign_code: Type.String(),
  window: Type.Object({ days: Type.Integer(), since: time, until: time }),
  numbers: count,
  has_overflow_number: Type.Boolean(),
  held_now: count,
  peak_held: count,
  hourly: Type.Array(Type.Object({ hour: time, new_sessions: count, peak_held: count })),
  sessions: Type.Object({ allocated: count, sticky: count, shared: count, overflow: count }),
  calls: Type.Object({
    total: count,
    by_rule: Type.Object({
      holder: count,
      grace: count,
      repeat_caller: count,
      campaign_only: count,
    }),
    on_shared_number: count,
  }),
  accuracy: Type.Object({
    estimated: ratio,
    method: Type.String(),
    call_mix_source: Type.Union([Type.Literal('observed'), Type.Literal('assumed')]),
  }),
  recommendation: Type.Object({
    target: Type.Number(),
    size: Type.Union([Type.Integer(), Type.Null()]),
    predicted_accuracy: ratio,
    ceiling: ratio,
    basis: Type.Union([
      Type.Literal('model'),
      Type.Literal('no_traffic'),
      Type.Literal('target_unreachable'),
    ]),
    busiest_hour_new_sessions: count,
    mean_hold_seconds: Type.Union([Type.Integer(), Type.Null()]),
    busy_hour_load_erlangs: Type.Number({ minimum: 0 }),
    note: Type.Union([Type.String(), Type.Null()]),
  }),
  rules_of_thumb: Type.Array(
    Type.Object({ source: Type.String(), rule: Type.String(), size: Type.Integer() }),
  ),
});

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
