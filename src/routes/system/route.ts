import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../app.js';
import { readiness, storeCheck } from '../../http/readiness.js';
import { STORE_RETRY_AFTER_SECONDS } from '../../store/errors.js';

const State = Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')]);
const Readiness = Type.Object({
  status: State,
  checks: Type.Record(
    Type.String(),
    Type.Object({ status: State, detail: Type.Optional(Type.String()) }),
  ),
});

export function systemRoutes(app: FastifyInstance, deps: AppDeps): void {
  const checks = deps.readiness ?? [storeCheck(deps.store)];
  const budgetMs = deps.readinessTimeoutMs ?? 1000;

  app.get('/healthz', {
    schema: {
      summary: 'Liveness: the process is up and answering',
      description: 'Checks no dependency; see /readyz for those.',
      tags: ['system'],
      response: { 200: Type.Object({ status: Type.Literal('ok') }) },
    },
    handler: async () => ({ status: 'ok' }),
  });

  app.get('/readyz', {
    schema: {
      summary: 'Readiness: every dependency answers within a short budget',
      description:
        'Checks the store, Redis when configured, and the data directory (embedded store). ' +
        '200 when all are ok or some are degraded (Redis down: rate limits count per process); ' +
        '503 when any is down.',
      tags: ['system'],
      response: { 200: Readiness, 503: Readiness },
    },
    handler: async (_request, reply) => {
      const r = await readiness(checks, budgetMs);
      if (r.status === 'down') {
        reply.code(503).header('retry-after', String(STORE_RETRY_AFTER_SECONDS));
      }
      return r;
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
