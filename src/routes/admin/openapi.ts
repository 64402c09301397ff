import type { TSchema } from 'typebox';
import { type RequestSchemas, validateRequest } from '../../http/validate.js';
import { pageOfItems } from './view-schemas.js';

/**
 * The OpenAPI description of an admin route (served at /admin/openapi.json).
 * Validation stays with validateRequest (src/http/validate.ts): the admin app
 * compiles no validators or serializers from these, so documenting a route
 * cannot change what it accepts or answers. Routes take it through `adminRoute`.
 */
function adminDoc(
  tag: string,
  summary: string,
  parts: {
    params?: TSchema;
    querystring?: TSchema;
    body?: TSchema;
    description?: string;
    /** 200 unless said otherwise. */
    status?: number;
    /** The answer: an item, or with `list` a page of them (view-schemas.ts). */
    answer?: TSchema;
    list?: boolean;
  } = {},
) {
  const ok = parts.answer
    ? parts.list
      ? { ...pageOfItems(parts.answer), description: 'One page; `next_cursor` is null on the last' }
      : { ...parts.answer, description: 'OK' }
    : { description: 'OK', type: 'object', additionalProperties: true };
  return {
    tags: [tag],
    summary,
    ...(parts.description ? { description: parts.description } : {}),
    security: [{ adminToken: [] }],
    ...(parts.params ? { params: parts.params } : {}),
    ...(parts.querystring ? { querystring: parts.querystring } : {}),
    ...(parts.body ? { body: parts.body } : {}),
    response: {
      [parts.status ?? 200]: ok,
      401: { description: 'No admin token, or not this server’s', type: 'object' },
      404: { description: 'No such item in this organization', type: 'object' },
      422: { description: 'Bad input, in FastAPI’s shape', type: 'object' },
    },
  };
}

/** What an admin route's OpenAPI description says besides its request schemas (see adminDoc). */
interface DocParts {
  description?: string;
  status?: number;
  answer?: TSchema;
  list?: boolean;
}

/**
 * One spec for an admin route: the OpenAPI description (`options.schema`) and the validating
 * `preHandler` (`options.preHandler`, then `read` in the handler) come from the same schemas,
 * so what the document says a route takes is what it accepts.
 */
export function adminRoute<S extends RequestSchemas>(
  tag: string,
  summary: string,
  spec: S & DocParts = {} as S & DocParts,
) {
  const validator = validateRequest(spec);
  const { params, query, body, bodyOptional: _, ...doc } = spec;
  return {
    options: {
      schema: adminDoc(tag, summary, { ...doc, params, querystring: query, body }),
      preHandler: validator.hook,
    },
    read: validator.read,
  };
}
