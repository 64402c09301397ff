import type { FastifyInstance, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../../deps.js';
import {
  createDestination,
  type DestinationContext,
  deleteDestination,
  destinationView,
  getDestination,
  updateDestination,
} from '../../../domain/conversions/destinations.js';
import { type RequeueRequest, requeueUploads } from '../../../domain/conversions/requeue.js';
import { testDestination } from '../../../domain/conversions/test-upload.js';
import { errors } from '../../../errors.js';
import { listRoute } from '../shared/list-route.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { OrgIdParams } from '../shared/params.js';
import * as C from './schema.js';
import {
  DestinationDetail,
  DestinationItem,
  DestinationTestResult,
  UploadAttemptItem,
  UploadItem,
  UploadsQueued,
} from './schema.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;
const TAG = 'conversion destinations';
const base = `${ORG_PREFIX}/conversion-destinations`;
const one = `${base}/:destination_id`;

const contextOf = (deps: AppDeps, req: FastifyRequest): DestinationContext => ({
  repos: deps.repos,
  box: deps.conversions?.box ?? null,
  now: new Date(deps.clock.now()),
  requestId: req.id,
});

/**
 * Conversion destinations, their uploads and attempts (contract §10, docs/conversions.md).
 * Registered inside the org-scoped plugin (org-scope.ts): an unknown organization is a 404
 * before these handlers run.
 */
export function conversionRoutes(admin: FastifyInstance, deps: AppDeps): void {
  destinationRoutes(admin, deps);
  uploadReadRoutes(admin, deps);
  uploadActionRoutes(admin, deps);
}

/** Adding, listing, showing, changing and deleting destinations. */
function destinationRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const create = adminRoute(TAG, 'Add a conversion destination', {
    params: OrgIdParams,
    body: C.CreateDestination,
    status: 201,
    answer: DestinationItem,
  });
  admin.post(base, create.options, async (req, reply) => {
    const { params, body } = create.read(req);
    return reply.code(201).send(await createDestination(contextOf(deps, req), params.org_id, body));
  });

  const list = adminRoute(TAG, 'The conversion destinations (secrets masked)', {
    params: OrgIdParams,
    answer: Type.Object({ destinations: Type.Array(DestinationItem) }),
  });
  admin.get(base, list.options, async (req) => {
    const { params } = list.read(req);
    const rows = await deps.queries.conversions.listDestinations(params.org_id);
    const now = new Date(deps.clock.now());
    return { destinations: rows.map((d) => destinationView(d, now)) };
  });

  const show = adminRoute(TAG, 'A destination, with last success, pending and failures', {
    params: C.DestinationParams,
    answer: DestinationDetail,
  });
  admin.get(one, show.options, async (req) => {
    const { params } = show.read(req);
    const d = await getDestination(contextOf(deps, req), params.org_id, params.destination_id);
    const s = await deps.queries.conversions.destinationStats(d.orgId, d.id);
    return {
      ...destinationView(d, new Date(deps.clock.now())),
      uploads: {
        last_success_at: iso(s.lastSuccessAt),
        pending: s.byStatus.pending ?? 0,
        sent: s.byStatus.sent ?? 0,
        failed: s.byStatus.failed ?? 0,
        retracted: s.byStatus.retracted ?? 0,
        not_retractable: s.byStatus.not_retractable ?? 0,
        failed_by_reason: s.failedByReason,
      },
    };
  });

  const patch = adminRoute(TAG, 'Change a destination (secrets given replace those kept)', {
    params: C.DestinationParams,
    body: C.UpdateDestination,
    answer: DestinationItem,
  });
  admin.patch(one, patch.options, async (req) => {
    const { params, body } = patch.read(req);
    return updateDestination(contextOf(deps, req), params.org_id, params.destination_id, body);
  });

  const remove = adminRoute(TAG, 'Delete a destination and its upload history', {
    params: C.DestinationParams,
    status: 204,
    answer: null,
  });
  admin.delete(one, remove.options, async (req, reply) => {
    const { params } = remove.read(req);
    await deleteDestination(contextOf(deps, req), params.org_id, params.destination_id);
    return reply.code(204).send();
  });
}

/** A destination's uploads and their attempts, newest first. */
function uploadReadRoutes(admin: FastifyInstance, deps: AppDeps): void {
  listRoute(admin, `${one}/uploads`, TAG, 'Uploads of a destination, newest first', {
    doc: { params: C.DestinationParams, query: C.UploadsQuery, answer: UploadItem },
    owner: ({ params }, req) =>
      getDestination(contextOf(deps, req), params.org_id, params.destination_id),
    rows: ({ owner: d, query, after, take }) =>
      deps.queries.conversions.listUploads(d.orgId, d.id, {
        status: query.status,
        limit: take,
        after,
      }),
    keyOf: (u) => u.id,
    view: (u) => ({
      upload_id: u.id,
      call_id: u.callId,
      kind: u.kind,
      dedupe_key: u.dedupeKey,
      status: u.status,
      attempts: u.attempts,
      reason_code: u.reasonCode,
      reason: u.reason,
      next_attempt_at: u.status === 'pending' ? iso(u.nextAttemptAt) : null,
      sent_at: iso(u.sentAt),
      created_at: iso(u.createdAt),
    }),
  });

  const attempts = adminRoute(TAG, 'Upload attempts of a destination, newest first', {
    params: C.DestinationParams,
    query: C.AttemptsQuery,
    answer: Type.Object({ attempts: Type.Array(UploadAttemptItem) }),
  });
  admin.get(`${one}/attempts`, attempts.options, async (req) => {
    const { params, query } = attempts.read(req);
    const d = await getDestination(contextOf(deps, req), params.org_id, params.destination_id);
    const rows = await deps.queries.conversions.listUploadAttempts(d.orgId, d.id, {
      uploadId: query.upload_id,
      limit: query.limit,
    });
    return {
      attempts: rows.map((a) => ({
        attempt_id: a.id,
        upload_id: a.uploadId,
        attempt: a.attempt,
        outcome: a.outcome,
        status_code: a.statusCode,
        reason: a.reason,
        started_at: iso(a.startedAt),
        finished_at: iso(a.finishedAt),
      })),
    };
  });
}

/** A validate-only test upload, and sending uploads again (retry, replay). */
function uploadActionRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const test = adminRoute(TAG, "One sample conversion in the platform's validate-only mode", {
    params: C.DestinationParams,
    answer: DestinationTestResult,
  });
  admin.post(`${one}/test`, test.options, async (req) => {
    const { params } = test.read(req);
    const c = contextOf(deps, req);
    const d = await getDestination(c, params.org_id, params.destination_id);
    if (!deps.conversions) throw errors.secretsKeyMissing();
    const box = deps.conversions.box;
    return testDestination(d, box, deps.conversions.platforms, c.now, async (token, secrets) => {
      if (!box) return;
      await deps.repos.uploads.replaceSealedSecrets(
        deps.repos.db,
        d.id,
        d.secrets,
        box.seal({ ...secrets, refresh_token: token }),
      );
    });
  });

  for (const [action, schema] of [
    ['retry', C.RetryUploads],
    ['replay', C.ReplayUploads],
  ] as const) {
    const route = adminRoute(
      TAG,
      action === 'retry'
        ? 'Send failed uploads again now (one, or every retriable one)'
        : 'Send conversions again, and backfill calls from before the destination (since a time, or one call); each call not queued is named with the reason',
      {
        params: C.DestinationParams,
        body: schema,
        bodyOptional: true,
        status: 202,
        answer: action === 'retry' ? UploadsQueued : C.UploadsReplayed,
      },
    );
    admin.post(`${one}/${action}`, route.options, async (req, reply) => {
      const { params, body } = route.read(req);
      const c = contextOf(deps, req);
      const d = await getDestination(c, params.org_id, params.destination_id);
      const b = (body ?? {}) as RequeueRequest;
      const r = await requeueUploads(deps.repos, d, action, b, {
        now: c.now,
        requestId: req.id,
      });
      return reply
        .code(202)
        .send(
          action === 'retry'
            ? { destination_id: d.id, queued: r.queued }
            : { destination_id: d.id, queued: r.queued, skipped: r.skipped },
        );
    });
  }
}
