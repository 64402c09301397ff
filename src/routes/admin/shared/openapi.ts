import type { RouteOptions } from 'fastify';
import type { TSchema } from 'typebox';
import {
  type RequestSchemas,
  type RequestValidator,
  validateRequest,
} from '../../../http/validate.js';
import {
  PARAMETER_EXAMPLES,
  REQUEST_EXAMPLES,
  RESPONSE_EXAMPLES,
  TEXT_RESPONSE_EXAMPLES,
} from '../examples.js';
import { type AdminHeader, ERRORS, type ErrorStatus, headersOf } from './responses.js';
import { pageOfItems } from './views.js';

/**
 * The OpenAPI description of an admin route (served at /admin/openapi.json).
 * Validation stays with validateRequest (src/http/validate.ts): the admin app
 * compiles no validators or serializers from these, so documenting a route
 * cannot change what it accepts or answers. Routes take it through `adminRoute`,
 * which requires the answer's schema: a route without one does not typecheck,
 * and `requireDocumented` refuses, at start-up, a route that bypasses the helper.
 * test/helpers/conformance.ts checks every answer of the HTTP suites against it.
 */

const json = (schema: TSchema, example?: unknown) => ({
  'application/json': { schema, ...(example === undefined ? {} : { example }) },
});

/** What an admin route's OpenAPI description says besides its request schemas. */
export interface DocParts {
  description?: string;
  /** 200 unless said otherwise. */
  status?: 200 | 201 | 202 | 204;
  /** The JSON answer (with `list`, one item of a page of them); null: no body (204). */
  answer: TSchema | null;
  list?: boolean;
  /** Media types the answer may have besides JSON (a CSV report), or instead of it (`only`). */
  media?: Record<string, TSchema>;
  /** The answer is in `media` only, never JSON. */
  mediaOnly?: boolean;
  /** Headers of the answer besides X-Request-Id. */
  headers?: AdminHeader[];
  /** Errors besides those every route may answer (401, 503; 404 and 422 with parameters; 400, 413 and 422 with a body). */
  errors?: ErrorStatus[];
  /** An example of the (JSON) answer. */
  example?: unknown;
  /** The request body's media types when it is not JSON (imports). */
  bodyMedia?: string[];
  /** Who may call it: the admin token unless said otherwise. */
  security?: Record<string, string[]>[];
  /** Summaries of the statuses a route answers besides its own (a readiness 503). */
  extraResponses?: Record<
    number,
    { description: string; schema: TSchema; headers?: AdminHeader[] }
  >;
}

function adminDoc(
  tag: string,
  summary: string,
  parts: DocParts & { params?: TSchema; querystring?: TSchema; body?: TSchema },
) {
  const status = parts.status ?? 200;
  const answer = parts.answer && (parts.list ? pageOfItems(parts.answer) : parts.answer);
  const content = {
    ...(answer && !parts.mediaOnly ? json(answer, parts.example) : {}),
    ...Object.fromEntries(Object.entries(parts.media ?? {}).map(([m, schema]) => [m, { schema }])),
  };
  const ok = {
    description: parts.list ? 'One page; `next_cursor` is null on the last' : 'OK',
    headers: headersOf(parts.headers ?? []),
    // `type: 'null'` keeps @fastify/swagger from describing a JSON body for an answer with none.
    ...(Object.keys(content).length > 0 ? { content } : { type: 'null' }),
  };
  const hasInput = Boolean(parts.params || parts.querystring || parts.body);
  // A route open to anyone (security: []) cannot answer 401.
  const open = parts.security?.length === 0;
  const errs = new Set<ErrorStatus>([
    ...(open ? [] : [401 as const]),
    503,
    ...(parts.errors ?? []),
  ]);
  if (parts.params) errs.add(404);
  if (hasInput) errs.add(422);
  if (parts.body) for (const s of [400, 413] as const) errs.add(s);
  if (parts.bodyMedia) errs.add(415);
  const responses: Record<number, object> = { [status]: ok };
  const errorAnswer = (e: { description: string; schema: TSchema; headers?: AdminHeader[] }) => ({
    description: e.description,
    headers: headersOf(e.headers ?? []),
    content: json(e.schema),
  });
  for (const s of [...errs].sort()) responses[s] = errorAnswer(ERRORS[s]);
  for (const [s, r] of Object.entries(parts.extraResponses ?? {})) {
    responses[Number(s)] = errorAnswer(r);
  }
  const body = parts.body;
  return {
    tags: [tag],
    summary,
    ...(parts.description ? { description: parts.description } : {}),
    security: parts.security ?? [{ adminToken: [] }],
    ...(parts.params ? { params: parts.params } : {}),
    ...(parts.querystring ? { querystring: parts.querystring } : {}),
    ...(body ? { body } : {}),
    ...(parts.bodyMedia ? { consumes: parts.bodyMedia } : {}),
    response: responses,
  };
}

/**
 * One spec for an admin route: the OpenAPI description (`options.schema`) and the validating
 * `preHandler` (`options.preHandler`, then `read` in the handler) come from the same schemas,
 * so what the document says a route takes is what it accepts.
 */
export function adminRoute<S extends RequestSchemas>(
  tag: string,
  summary: string,
  spec: S & DocParts,
) {
  const { params, query, body, bodyOptional: _, ...doc } = spec;
  const validator = validateRequest(
    spec.bodyMedia ? { params, query } : { params, query, body, bodyOptional: spec.bodyOptional },
  );
  return {
    options: {
      schema: adminDoc(tag, summary, { ...doc, params, querystring: query, body }),
      preHandler: validator.hook,
    },
    // With `bodyMedia` the body is read raw by the handler, never validated here.
    read: validator.read as RequestValidator<S>['read'],
  };
}

/** `getOrgsByOrgIdCampaignsByCode` from GET /admin/orgs/:org_id/campaigns/:code. */
export function operationIdOf(method: string, url: string): string {
  const pascal = (s: string) =>
    s
      .split(/[-_]/)
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join('');
  const parts = url
    .replace(/^\/admin(?=\/|$)/, '')
    .split('/')
    .filter(Boolean)
    .map((seg) => (seg.startsWith(':') ? `By${pascal(seg.slice(1))}` : pascal(seg)));
  return `${method.toLowerCase()}${parts.join('')}`;
}

/**
 * An `onRoute` hook for the admin app: names each operation, and refuses at start-up a route
 * that documents no answer (one registered without `adminRoute`).
 */
export function requireDocumented(route: RouteOptions): void {
  const schema = route.schema as
    | {
        hide?: boolean;
        response?: unknown;
        operationId?: string;
        body?: TSchema;
        params?: TSchema;
      }
    | undefined;
  if (schema?.hide || route.url.startsWith('/admin/docs')) return;
  const methods = [route.method].flat().filter((m) => m !== 'HEAD');
  if (methods.length === 0) return;
  if (!schema?.response) {
    throw new Error(`admin route ${methods.join(',')} ${route.url} documents no answer`);
  }
  schema.operationId ??= operationIdOf(methods[0]!, route.url);
  const name = `${methods[0]} ${route.url}`;
  const example = REQUEST_EXAMPLES[name];
  if (schema.body && example !== undefined && !('examples' in schema.body)) {
    schema.body = { ...schema.body, examples: [example] };
  }
  if (schema.params) schema.params = withParameterExamples(schema.params);
  schema.response = withAnswerExamples(schema.response as Responses, name);
}

type Responses = Record<
  string,
  { content?: Record<string, { schema: TSchema; example?: unknown }> }
>;

/** The success answer's content with the examples of src/routes/admin/examples.ts. */
function withAnswerExamples(responses: Responses, name: string): Responses {
  const examples: Record<string, unknown> = {
    ...TEXT_RESPONSE_EXAMPLES[name],
    ...(name in RESPONSE_EXAMPLES ? { 'application/json': RESPONSE_EXAMPLES[name] } : {}),
  };
  return Object.fromEntries(
    Object.entries(responses).map(([status, r]) => {
      if (!status.startsWith('2') || !r.content) return [status, r];
      const content = Object.fromEntries(
        Object.entries(r.content).map(([media, m]) => [
          media,
          m.example === undefined && examples[media] !== undefined
            ? { ...m, example: examples[media] }
            : m,
        ]),
      );
      return [status, { ...r, content }];
    }),
  );
}

/** Path parameters with an example each (PARAMETER_EXAMPLES), unless they carry one. */
function withParameterExamples(params: TSchema): TSchema {
  const { properties } = params as { properties?: Record<string, TSchema> };
  if (!properties) return params;
  const withExamples = Object.fromEntries(
    Object.entries(properties).map(([key, p]) => {
      const example = PARAMETER_EXAMPLES[key];
      return [key, example === undefined || 'examples' in p ? p : { ...p, examples: [example] }];
    }),
  );
  return { ...params, properties: withExamples };
}
