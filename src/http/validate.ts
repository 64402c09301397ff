import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { TSchema } from 'typebox';
import { campaignConfigProblems } from '../domain/outbound/campaign-config.js';
import { e164Problem } from '../domain/phone/e164.js';
import { errors, type PydanticError, ValidationFailed } from '../errors.js';
import {
  decodeBody,
  fromPlain,
  jsonInvalidError,
  missingError,
  type PyValue,
  validate,
} from './pydantic/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    valid?: { params: unknown; query: unknown; body: unknown };
    /** The caller's Content-Type header, as sent (see `keepContentType`). */
    contentTypeHeader?: string;
  }
}

/**
 * Fastify answers a Content-Type it cannot parse (`json`, `a/b/c`) with 415
 * before any route code runs, where FastAPI reads the body as text and
 * answers 422. Every body is read raw anyway, so Fastify parses under a
 * neutral type and the body decoder gets the caller's header.
 */
export function keepContentType(app: FastifyInstance): void {
  app.addHook('preParsing', async (request, _reply, payload) => {
    const given = request.headers['content-type'];
    if (given !== undefined) {
      request.contentTypeHeader = given;
      request.raw.headers['content-type'] = 'application/octet-stream';
    }
    return payload;
  });
}

/** The Content-Type the caller sent, before `keepContentType` neutralised it for Fastify. */
export function contentTypeOf(request: FastifyRequest): string | undefined {
  return request.contentTypeHeader ?? request.headers['content-type'];
}

export type Check = (value: unknown) => string | null;

/** Named checks a schema can ask for with `'x-check'`; each gives a Pydantic `value_error`. */
export const checks: Record<string, Check> = {
  e164: e164Problem,
  iana_zone: (v) => {
    if (typeof v !== 'string' || (!v.includes('/') && v !== 'UTC'))
      return 'must be an IANA time zone name, such as America/Chicago';
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: v });
      return null;
    } catch {
      return 'must be an IANA time zone name, such as America/Chicago';
    }
  },
  iso_datetime: (v) =>
    typeof v === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(v) &&
    !Number.isNaN(Date.parse(v))
      ? null
      : 'must be an ISO 8601 timestamp with a zone, such as 2026-01-31T15:04:05Z',
  dynamic_variables: (v) => {
    if (typeof v !== 'object' || v === null) return null;
    // Value types are the schema's union; this adds the bounds Pydantic would put in a validator.
    if (Object.keys(v).length > 50) return 'must have at most 50 keys';
    return Buffer.byteLength(JSON.stringify(v)) > 8192 ? 'must be at most 8 KiB as JSON' : null;
  },
  campaign_config: (v) => {
    const problems = campaignConfigProblems(v);
    return problems.length === 0 ? null : problems.join('; ');
  },
};

export function validated<P, B, Q = unknown>(
  request: FastifyRequest,
): { params: P; body: B; query: Q } {
  if (!request.valid) throw new Error('route has no validation hook');
  return request.valid as { params: P; body: B; query: Q };
}

/**
 * FastAPI's order: a body that is not JSON is answered alone; otherwise path
 * errors, then query, then body errors, all of them in one 422. Runs after
 * authentication (contract §2), so a caller that cannot authenticate learns
 * nothing about the body.
 */
export function validateRequest(spec: {
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** An absent body reads as `{}` (admin rows whose fields are all optional). */
  bodyOptional?: boolean;
}): preHandlerAsyncHookHandler {
  return async (request) => {
    const decoded = spec.body
      ? decodeBody(contentTypeOf(request), request.body as Buffer | undefined)
      : undefined;
    if (decoded?.kind === 'undecodable') throw errors.bodyUndecodable();
    if (decoded?.kind === 'json_invalid')
      throw new ValidationFailed([jsonInvalidError(decoded.pos, decoded.msg)]);

    const found: PydanticError[] = [];
    const run = (
      schema: TSchema | undefined,
      value: PyValue,
      loc: string,
      fallback: unknown,
    ): unknown => {
      if (!schema) return fallback;
      const r = validate(schema, value, [loc], { checks, storable: true });
      if (r.ok) return r.value;
      found.push(...r.errors);
      return undefined;
    };
    const params = run(spec.params, fromPlain(request.params), 'path', request.params);
    const query = run(spec.query, fromPlain(request.query), 'query', request.query);
    let body: unknown;
    if (decoded?.kind === 'missing') {
      if (spec.bodyOptional) body = run(spec.body, fromPlain({}), 'body', undefined);
      else found.push(missingError(['body']));
    } else if (decoded) body = run(spec.body, decoded.value, 'body', undefined);
    if (found.length > 0) throw new ValidationFailed(found);
    request.valid = { params, query, body };
  };
}
