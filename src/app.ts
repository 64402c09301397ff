import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Logger } from 'pino';
import { adminRoutes } from './admin/routes.js';
import type { WebhookSettings } from './config.js';
import type { Keyring } from './domain/auth/keyring.js';
import type { RateLimiter } from './domain/rate-limit/limiter.js';
import { openApiWebhooks } from './domain/webhooks/schemas.js';
import { installErrorHandling, trackRoutes } from './http/error-handler.js';
import { instrument, type Metrics } from './http/metrics.js';
import { requestIdFor } from './http/request-id.js';
import { keepContentType } from './http/validate.js';
import { buyerReportRoute } from './routes/buyer-report/route.js';
import { type TwilioSettings, twilioRoutes } from './routes/carrier/twilio.js';
import { dniSessionRoute } from './routes/dni-session/route.js';
import { outboundRoute } from './routes/outbound/route.js';
import { systemRoutes } from './routes/system/route.js';
import type { Store } from './store/db.js';

export interface Clock {
  /** Epoch milliseconds. Tests pass a clock they can set. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface AppDeps {
  store: Store;
  keyring: Keyring;
  limiter: RateLimiter;
  clock: Clock;
  metrics: Metrics;
  logger: Logger;
  /** Twilio webhook credentials; absent or incomplete, the carrier routes answer 503. */
  twilio?: TwilioSettings | undefined;
  /** Absent: the defaults (private targets refused). */
  webhooks?: WebhookSettings | undefined;
}

export const BODY_LIMIT = 64 * 1024;

/**
 * One access-log line per request instead of Fastify's two ("incoming
 * request" + "request completed"): log writes were a quarter of the server's
 * CPU per DNI session (bench/README.md).
 */
class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

function baseInstance(logger: Logger): FastifyInstance {
  const app = Fastify({
    loggerInstance: logger,
    genReqId: requestIdFor,
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: false },
    logController: new AccessLog(),
  }) as unknown as FastifyInstance;
  // Request bodies are validated by our Pydantic-compatible walker after
  // authentication (src/http/validate.ts); route schemas feed OpenAPI only.
  app.setValidatorCompiler(() => () => true);
  // Keep the raw bytes: FastAPI's rules for content types and bad JSON apply.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  keepContentType(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json'))
      reply.header('content-type', 'application/json');
    return payload;
  });
  return app;
}

/** The public API. It never listens: src/server.ts does. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = baseInstance(deps.logger);
  // Order matters: route tracking and swagger must see every route registered after them.
  const table = trackRoutes(app);
  installErrorHandling(app, table);
  instrument(app, deps.metrics);
  const events = openApiWebhooks();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Call tracking API',
        version: '0.1.0',
        description:
          'DNI sessions, buyer reports and governed outbound touches. Authenticate with `Authorization: Bearer svc_live_…`.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } },
        schemas: events.schemas as never,
      },
      // The events an organization's webhook endpoints receive (docs/webhooks.md); the
      // plugin passes `webhooks` through, its OpenAPI 3.0 types do not know the field.
      webhooks: events.webhooks as never,
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  systemRoutes(app, deps);
  dniSessionRoute(app, deps);
  buyerReportRoute(app, deps);
  outboundRoute(app, deps);
  twilioRoutes(app, deps);
  return app;
}

export { baseInstance };

/** The provider-support API and /metrics, on their own listener (127.0.0.1 by default). */
export async function buildAdminApp(deps: AppDeps, adminToken: string): Promise<FastifyInstance> {
  const app = baseInstance(deps.logger);
  const table = trackRoutes(app);
  installErrorHandling(app, table);
  adminRoutes(app, deps, adminToken);
  return app;
}
