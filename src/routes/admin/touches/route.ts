import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { touchView } from '../../../domain/admin/views.js';
import { errors } from '../../../errors.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { TouchDetail, TouchParams } from './schema.js';

/** A touch as decided and as dispatched: support answers "was it sent, when, how often tried". */
export function touchRoutes(admin: FastifyInstance, deps: AppDeps): void {
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
