import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { DEPENDENCY_RETRY_AFTER_SECONDS, errors } from '../../../errors.js';
import { credentialOf } from '../../../http/auth.js';
import { readiness, storeCheck } from '../../../http/readiness.js';
import { adminRoute } from '../shared/openapi.js';
import { sameToken } from '../shared/token.js';
import { Health, MetricsUnauthorized, ReadinessDetail } from './schema.js';

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
      reply.code(503).header('retry-after', String(DEPENDENCY_RETRY_AFTER_SECONDS));
    }
    return r;
  });
}

/**
 * /metrics and /healthz, outside the admin token's plugin. Labels name every tenant's
 * organization and campaign ids: a scrape needs a token too.
 */
export function systemRoutes(app: FastifyInstance, deps: AppDeps, metricsToken: string): void {
  const metrics = adminRoute('system', 'Prometheus metrics', {
    answer: null,
    media: { 'text/plain': Type.String({ description: 'The Prometheus text format' }) },
    security: [{ metricsToken: [] }],
    description:
      'Labels name every organization and campaign: a scrape needs METRICS_TOKEN (or the admin token when it is not set). A wrong token is 401 `invalid_metrics_token`.',
    extraResponses: {
      401: {
        description: 'No metrics token, or not this server’s',
        schema: MetricsUnauthorized,
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
