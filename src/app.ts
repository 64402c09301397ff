import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Logger } from 'pino';
import { type AppDeps, BODY_LIMIT, DEFAULT_HTTP_LIMITS, type HttpLimits } from './deps.js';
import { errors } from './errors.js';
import { installErrorHandling, sendError, trackRoutes } from './http/error-handler.js';
import { instrument } from './http/metrics.js';
import { clientErrorHandler, frameworkErrors, MAX_HEADER_BYTES } from './http/protocol-errors.js';
import { requestIdFor } from './http/request-id.js';
import { installGracefulClose } from './http/shutdown.js';
import { keepContentType } from './http/validate.js';
import { adminRoutes } from './routes/admin/route.js';
import { adminOpenapiOptions } from './routes/admin/shared/document.js';
import { requireDocumented } from './routes/admin/shared/openapi.js';
import { buyerReportRoute } from './routes/buyer-report/route.js';
import { twilioRoutes } from './routes/carrier/twilio.js';
import { dniSessionRoute } from './routes/dni-session/route.js';
import { openapiOptions, publicSchemas } from './routes/document.js';
import { outboundRoute } from './routes/outbound/route.js';
import { systemRoutes } from './routes/system/route.js';

/** Node checks the timeouts on a timer; a quarter of the shorter one keeps the overshoot small. */
function checkingInterval(l: HttpLimits): number {
  return Math.min(
    1_000,
    Math.max(10, Math.floor(Math.min(l.headersTimeoutMs, l.requestTimeoutMs) / 4)),
  );
}

/**
 * One access-log line per request instead of Fastify's two ("incoming
 * request" + "request completed"): two log writes per request cost a quarter of
 * the server's CPU per DNI session (bench/README.md).
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

/**
 * `bodies`: 'raw' for the APIs, whose routes read the raw bytes and the sent
 * Content-Type themselves (FastAPI's rules); 'forms' for the console, which
 * parses its posted forms with @fastify/formbody.
 */
function baseInstance(
  logger: Logger,
  limits: HttpLimits,
  bodies: 'raw' | 'forms' = 'raw',
): FastifyInstance {
  const app = Fastify({
    loggerInstance: logger,
    genReqId: requestIdFor,
    bodyLimit: BODY_LIMIT,
    requestTimeout: limits.requestTimeoutMs,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: checkingInterval(limits),
      maxHeaderSize: MAX_HEADER_BYTES,
      // Node would answer an HTTP/1.1 request without Host itself, with an empty 400; the
      // onRequest hook below answers it in the spec's shape instead.
      requireHostHeader: false,
    },
    // Our own 503 in the spec's shape (src/http/shutdown.ts) instead of Fastify's.
    return503OnClosing: false,
    // A path parameter of any length the request line can hold reaches the route, so a long
    // campaign code is authenticated and then answered 422, not 414 (contract §2).
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: MAX_HEADER_BYTES },
    clientErrorHandler: clientErrorHandler(logger),
    frameworkErrors: frameworkErrors(sendError),
    logController: new AccessLog(),
  }) as unknown as FastifyInstance;
  // Request bodies are validated by our Pydantic-compatible walker after
  // authentication (src/http/validate.ts); route schemas feed OpenAPI only.
  app.setValidatorCompiler(() => () => true);
  // Keep the raw bytes: FastAPI's rules for content types and bad JSON apply.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  if (bodies === 'raw') keepContentType(app);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // HTTP/1.1 requires Host (RFC 9112 §3.2): 400, and the socket closes.
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      reply.header('connection', 'close');
      throw errors.badRequest();
    }
  });
  // After the request id, so a 503 while stopping carries one too.
  installGracefulClose(app, limits.shutdownDrainMs, limits.requestTimeoutMs);
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json'))
      reply.header('content-type', 'application/json');
    return payload;
  });
  return app;
}

/** The public API. It never listens: src/server.ts does. */
export async function buildApp(
  deps: AppDeps,
  limits: HttpLimits = DEFAULT_HTTP_LIMITS,
): Promise<FastifyInstance> {
  const app = baseInstance(deps.logger, limits);
  // Order matters: route tracking and swagger must see every route registered after them.
  const table = trackRoutes(app);
  installErrorHandling(app, table, deps.storeFailure);
  instrument(app, deps.metrics);
  // Body schemas are shared schemas referenced by `$ref`, so the document
  // names them in components.schemas (src/routes/openapi.ts).
  for (const schema of publicSchemas) app.addSchema(schema);
  await app.register(swagger, openapiOptions);
  await app.register(swaggerUi, { routePrefix: '/docs' });
  systemRoutes(app, deps);
  dniSessionRoute(app, deps, deps.sessions);
  buyerReportRoute(app, deps);
  outboundRoute(app, deps);
  twilioRoutes(app, deps);
  return app;
}

export { baseInstance };

/**
 * The provider-support API and /metrics, on their own listener (127.0.0.1 by
 * default). /metrics takes METRICS_TOKEN, or the admin token when unset.
 */
export async function buildAdminApp(
  deps: AppDeps,
  adminToken: string,
  metricsToken: string = adminToken,
  limits: HttpLimits = DEFAULT_HTTP_LIMITS,
): Promise<FastifyInstance> {
  const app = baseInstance(deps.logger, limits);
  const table = trackRoutes(app);
  installErrorHandling(app, table, deps.storeFailure);
  // Route schemas here are documentation (src/routes/admin/shared/openapi.ts): answers are
  // written as the handlers built them, never filtered through a schema.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // Before swagger, so each operation is named and a route without a documented answer refused.
  app.addHook('onRoute', requireDocumented);
  await app.register(swagger, adminOpenapiOptions);
  await app.register(swaggerUi, { routePrefix: '/admin/docs' });
  app.get('/admin/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  adminRoutes(app, deps, adminToken, metricsToken);
  return app;
}
