import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, errors, type FailureTranslator, ValidationFailed } from '../errors.js';
import { safeError } from '../log-privacy.js';
import { dumpsPy, dumpsSafe, render422Safe } from './pydantic/index.js';

export interface RouteTable {
  /** Path patterns with `:param` segments and the methods each answers. */
  routes: { pattern: RegExp; methods: string[] }[];
}

/** Turns a Fastify route path (`/a/:b/c`) into a matcher for 405 detection. */
export function routeMatcher(path: string): RegExp {
  const body = path
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}$`);
}

/**
 * Writes a catalogue error. The body is always JSON in the spec's shape: what JSON cannot carry
 * (an echoed NaN, a lone surrogate) is written as a stand-in (validation/safe-json.ts).
 */
function errorBody(err: AppError | ValidationFailed): string {
  return err instanceof ValidationFailed
    ? render422Safe(err.errors)
    : dumpsSafe({ detail: err.code, ...err.extra }, dumpsPy({ detail: err.code }));
}

export function sendError(reply: FastifyReply, err: AppError | ValidationFailed): FastifyReply {
  const body = errorBody(err);
  if (err instanceof AppError) reply.headers(err.headers);
  // Bytes, so Fastify adds no charset even where no onSend hook runs (frameworkErrors).
  return reply.code(err.status).header('content-type', 'application/json').send(Buffer.from(body));
}

function fromFastify(err: FastifyError): AppError | null {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge();
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.bodyUndecodable();
    default:
      return null;
  }
}

/**
 * Catalogue errors as they are, a store's as the catalogue names them (`storeFailure`: the
 * store's translation, AppDeps.storeFailure), anything else a logged 500.
 */
export function catalogueError(
  err: unknown,
  request: Pick<FastifyRequest, 'log'>,
  storeFailure: FailureTranslator,
): AppError | ValidationFailed {
  if (err instanceof AppError || err instanceof ValidationFailed) return err;
  const mapped = fromFastify(err as FastifyError);
  if (mapped) return mapped;
  const failure = storeFailure(err);
  if (failure) {
    // The SQLSTATE and the statement's name only: a driver error's text can carry the
    // statement's parameters. The request id comes with request.log.
    const { error, code } = failure;
    request.log.warn(
      { code, statement: safeError(err).statement, status: error.status },
      'store failure',
    );
    return error;
  }
  request.log.error({ err }, 'unhandled error');
  return errors.internal();
}

/**
 * An error after a streamed answer has started (its status already sent): one NDJSON line,
 * `{"status":N,"error":BODY}`, BODY being what the error handler would have answered.
 */
export function errorLine(
  err: unknown,
  request: Pick<FastifyRequest, 'log'>,
  storeFailure: FailureTranslator,
): string {
  const e = catalogueError(err, request, storeFailure);
  return `{"status":${e.status},"error":${errorBody(e)}}\n`;
}

/**
 * The one place that renders errors: catalogue errors as they are, a store failure as
 * `storeFailure` names it (503 with Retry-After, 409), anything else as a logged 500.
 */
export function installErrorHandling(
  app: FastifyInstance,
  table: RouteTable,
  storeFailure: FailureTranslator,
): void {
  app.setErrorHandler((err: FastifyError | AppError | ValidationFailed, request, reply) =>
    sendError(reply, catalogueError(err, request, storeFailure)),
  );

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allow = table.routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods);
    if (allow.length > 0) return sendError(reply, errors.methodNotAllowed([...new Set(allow)]));
    return sendError(reply, errors.routeNotFound());
  });
}

/** Records every route so the not-found handler can tell 404 from 405. */
export function trackRoutes(app: FastifyInstance): RouteTable {
  const table: RouteTable = { routes: [] };
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    table.routes.push({
      pattern: routeMatcher(route.url),
      methods: methods.filter((m) => m !== 'HEAD'),
    });
  });
  return table;
}
