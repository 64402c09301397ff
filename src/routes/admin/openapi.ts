import type { TSchema } from 'typebox';
import { pageOfItems } from './view-schemas.js';

/**
 * The OpenAPI description of an admin route (served at /admin/openapi.json).
 * Validation stays with validateRequest (src/http/validate.ts): the admin app
 * compiles no validators or serializers from these, so documenting a route
 * cannot change what it accepts or answers.
 */
export function adminDoc(
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
