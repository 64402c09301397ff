import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { touchView } from '../../../domain/admin/views.js';
import { normalizeE164 } from '../../../domain/phone/e164.js';
import { errors } from '../../../errors.js';
import { commonFilter } from '../shared/filters.js';
import { listRoute } from '../shared/list-route.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { OrgIdParams } from '../shared/params.js';
import { TouchDetail, TouchItem, TouchListQuery, TouchParams } from './schema.js';

/** The list of outbound touches, and one touch with every dispatch attempt. */
export function touchRoutes(admin: FastifyInstance, deps: AppDeps): void {
  listRoute(
    admin,
    `${ORG_PREFIX}/touches`,
    'touches',
    'List outbound touches with their checks and dispatch state',
    {
      doc: {
        params: OrgIdParams,
        query: TouchListQuery,
        answer: TouchItem,
        description: '`since`/`until` apply to the time the touch was decided.',
      },
      rows: async (p) =>
        deps.queries.activity.listTouches(p.params.org_id, {
          ...(await commonFilter(deps, p)),
          dispatchStatus: p.query.dispatch_status,
          toE164: p.query.to ? (normalizeE164(p.query.to) ?? p.query.to) : undefined,
        }),
      keyOf: (r) => r.touch.id,
      view: (r) => touchView(r.touch, r.campaignCode),
    },
  );
  touchDetailRoute(admin, deps);
}

/** A touch as decided and as dispatched: support answers "was it sent, when, how often tried". */
function touchDetailRoute(admin: FastifyInstance, deps: AppDeps): void {
  const getTouchesByTouchId = adminRoute(
    'touches',
    'Show a touch: its decision, checks and every dispatch attempt',
    { params: TouchParams, answer: TouchDetail },
  );
  admin.get(`${ORG_PREFIX}/touches/:touch_id`, getTouchesByTouchId.options, async (req) => {
    const { params } = getTouchesByTouchId.read(req);
    const t = await deps.queries.activity.findTouch(params.org_id, params.touch_id);
    if (!t) throw errors.touchNotFound();
    const view = touchView(t);
    if (!view.dispatch) return view;
    const attempts = await deps.queries.activity.touchAttempts(params.org_id, t.id);
    return {
      ...view,
      dispatch: {
        ...view.dispatch,
        history: attempts.map((a) => ({
          attempt: a.attempt,
          outcome: a.outcome,
          carrier: a.carrier,
          carrier_id: a.carrierId,
          error: a.error,
          started_at: a.startedAt.toISOString(),
          finished_at: a.finishedAt?.toISOString() ?? null,
        })),
      },
    };
  });
}
