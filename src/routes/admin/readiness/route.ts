import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { readiness, storeCheck } from '../../../http/readiness.js';
import { STORE_RETRY_AFTER_SECONDS } from '../../../store/errors.js';
import { adminRoute } from '../shared/openapi.js';

const State = Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')]);
const ReadinessDetail = Type.Object({
  status: State,
  checks: Type.Record(
    Type.String(),
    Type.Object({ status: State, detail: Type.Optional(Type.String()) }),
  ),
});

/**
 * The public /readyz with what is wrong (a driver's error, the failed query, how many
 * organizations have a stale list): for operators, behind the admin token.
 */
export function readinessRoute(admin: FastifyInstance, deps: AppDeps): void {
  const checks = deps.readiness ?? [storeCheck(deps)];
  const budgetMs = deps.readinessTimeoutMs ?? 1000;
  const route = adminRoute('system', 'Readiness of every dependency, with what is wrong', {
    description:
      'The public /readyz says each dependency’s state only; this says why. 503 with ' +
      'Retry-After when a dependency is down.',
    answer: ReadinessDetail,
    extraResponses: {
      503: {
        description: 'A dependency is down: the same body, and Retry-After',
        schema: ReadinessDetail,
        headers: ['Retry-After'],
      },
    },
  });
  admin.get('/admin/readyz', route.options, async (_request, reply) => {
    const r = await readiness(checks, budgetMs);
    if (r.status === 'down') {
      reply.code(503).header('retry-after', String(STORE_RETRY_AFTER_SECONDS));
    }
    return r;
  });
}
