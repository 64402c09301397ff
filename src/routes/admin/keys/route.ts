import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import {
  issueKey,
  keyView,
  revokeKey,
  rotateKey,
  setKeyScopes,
} from '../../../domain/admin/orgs-keys.js';
import { errors } from '../../../errors.js';
import { adminContext } from '../shared/context.js';
import { listRoute } from '../shared/list-route.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { OrgIdParams } from '../shared/params.js';
import {
  CreateKey,
  KeyIdParams,
  KeyIssued,
  KeyItem,
  KeyListQuery,
  KeyRotated,
  RotateKey,
  UpdateKey,
} from './schema.js';

/** A key by its id alone (/admin/keys/:key_id): its scopes, revoking and rotating it; never a secret. */
export function keyRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const patchKeysByKeyId = adminRoute('keys', 'Replace a key’s scopes', {
    params: KeyIdParams,
    body: UpdateKey,
    answer: KeyItem,
  });
  admin.patch('/admin/keys/:key_id', patchKeysByKeyId.options, async (req) => {
    const { params, body } = patchKeysByKeyId.read(req);
    return setKeyScopes(adminContext(deps, req), params.key_id, body.scopes);
  });
  const postKeysByKeyIdRevoke = adminRoute('keys', 'Revoke a key now', {
    params: KeyIdParams,
    answer: KeyItem,
  });
  admin.post('/admin/keys/:key_id/revoke', postKeysByKeyIdRevoke.options, async (req) => {
    const { params } = postKeysByKeyIdRevoke.read(req);
    return revokeKey(adminContext(deps, req), params.key_id);
  });
  const postKeysByKeyIdRotate = adminRoute(
    'keys',
    'Issue a replacement key; the old one stops after the grace period',
    {
      params: KeyIdParams,
      body: RotateKey,
      bodyOptional: true,
      status: 201,
      answer: KeyRotated,
      errors: [409],
    },
  );
  admin.post('/admin/keys/:key_id/rotate', postKeysByKeyIdRotate.options, async (req, reply) => {
    const { params, body } = postKeysByKeyIdRotate.read(req);
    const rotated = await rotateKey(adminContext(deps, req), params.key_id, body.grace_seconds);
    return reply.code(201).send(rotated);
  });
  const getKeysByKeyId = adminRoute('keys', 'Show an API key (never the key itself)', {
    params: KeyIdParams,
    answer: KeyItem,
  });
  admin.get('/admin/keys/:key_id', getKeysByKeyId.options, async (req) => {
    const { params } = getKeysByKeyId.read(req);
    const key = await deps.queries.config.findKey(params.key_id);
    if (!key) throw errors.keyNotFound();
    return keyView(key);
  });
}

/** Issuing a key to an organization and listing its keys (under the org-scoped plugin). */
export function orgKeyRoutes(scope: FastifyInstance, deps: AppDeps): void {
  const postKeys = adminRoute('keys', 'Issue an API key (the key is shown once)', {
    params: OrgIdParams,
    body: CreateKey,
    status: 201,
    answer: KeyIssued,
  });
  scope.post(`${ORG_PREFIX}/keys`, postKeys.options, async (req, reply) => {
    const { params, body } = postKeys.read(req);
    return reply.code(201).send(await issueKey(adminContext(deps, req), params.org_id, body));
  });

  listRoute(
    scope,
    `${ORG_PREFIX}/keys`,
    'keys',
    "List an organization's API keys (never the key itself)",
    {
      doc: { params: OrgIdParams, query: KeyListQuery, answer: KeyItem },
      rows: ({ params, query, after, take }) =>
        deps.queries.config.listKeys(params.org_id, {
          limit: take,
          after,
          status: query.status,
          now: new Date(deps.clock.now()),
        }),
      keyOf: (r) => r.id,
      view: keyView,
    },
  );
}
