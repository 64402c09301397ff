import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../deps.js';
import { DEPENDENCY_RETRY_AFTER_SECONDS } from '../../errors.js';
import { publicView, readiness, readinessLogger, storeCheck } from '../../http/readiness.js';
import { ServiceUnavailableError } from '../common.js';
import { type Named, reply } from '../openapi.js';

const Health = Type.Object(
  { status: Type.Literal('ok') },
  { $id: 'Health', examples: [{ status: 'ok' }] },
);

const State = Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')], {
  description: 'ok; degraded (serving with less than it should, e.g. Redis down); down',
});
const Readiness = Type.Object(
  {
    status: State,
    checks: Type.Record(Type.String(), Type.Object({ status: State }), {
      description:
        'Each dependency: store, redis (when configured), data_dir (embedded store). Its state ' +
        'only: what is wrong is in the log and on the admin listener (GET /admin/readyz).',
    }),
  },
  {
    $id: 'Readiness',
    examples: [
      {
        status: 'degraded',
        checks: {
          store: { status: 'ok' },
          redis: { status: 'degraded' },
        },
      },
    ],
  },
);

/** /readyz's 503: a dependency down, or the process stopping (SIGTERM) before any is asked. */
const ReadinessDown = Type.Union([Type.Ref('Readiness'), Type.Ref('ServiceUnavailableError')], {
  $id: 'ReadinessDown',
  examples: [{ status: 'down', checks: { store: { status: 'down' } } }],
});

export const systemSchemas: Named[] = [Health, Readiness, ReadinessDown];

const stopping = reply(
  'The process is stopping (SIGTERM): `{"detail":"service_unavailable"}`; ask another',
  ServiceUnavailableError,
  { headers: ['Retry-After'] },
);

export function systemRoutes(app: FastifyInstance, deps: AppDeps): void {
  const checks = deps.readiness ?? [storeCheck(deps)];
  const budgetMs = deps.readinessTimeoutMs ?? 1000;
  const logChange = readinessLogger((r, recovered) =>
    recovered
      ? app.log.info({ readiness: r }, 'readiness: every dependency is ok again')
      : app.log.warn({ readiness: r }, `readiness: ${r.status}`),
  );

  app.get('/healthz', {
    schema: {
      operationId: 'getHealth',
      summary: 'Liveness: the process is up and answering',
      description: 'No key needed. Asks no dependency: see /readyz for those.',
      tags: ['system'],
      security: [],
      response: { 200: reply('The process is up', Health), 503: stopping },
    },
    handler: async () => ({ status: 'ok' }),
  });

  app.get('/readyz', {
    schema: {
      operationId: 'getReadiness',
      summary: 'Readiness: every dependency answers within a short budget',
      description:
        'No key needed. Checks the store, Redis when configured, and the data directory ' +
        '(embedded store), each within READINESS_TIMEOUT_MS. 200 while none is down (Redis ' +
        'down is degraded: rate limits count per process); 503 when any is down. Says each ' +
        'state only; the details are logged and on the admin listener (GET /admin/readyz).',
      tags: ['system'],
      security: [],
      response: {
        200: reply('Every dependency is ok or degraded', Readiness),
        503: reply(
          'A dependency is down (a readiness body), or the process is stopping (SIGTERM: ' +
            '`{"detail":"service_unavailable"}`)',
          ReadinessDown,
          { headers: ['Retry-After'] },
        ),
      },
    },
    handler: async (_request, reply) => {
      const r = await readiness(checks, budgetMs);
      logChange(r);
      if (r.status === 'down') {
        reply.code(503).header('retry-after', String(DEPENDENCY_RETRY_AFTER_SECONDS));
      }
      return publicView(r);
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
