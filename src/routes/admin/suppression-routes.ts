import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { getOrg } from '../../domain/admin/orgs-keys.js';
import type { SuppressionList } from '../../domain/compliance/index.js';
import { normalizeE164 } from '../../domain/phone/e164.js';
import { importSuppressionList } from '../../domain/suppression/import.js';
import { numberDigits } from '../../domain/suppression/lines.js';
import { errors } from '../../errors.js';
import { contentTypeOf, validateRequest } from '../../http/validate.js';
import { writeAudit } from '../../store/repos/audit.js';
import { decodeCursor } from '../../store/repos/paging.js';
import {
  deleteEntry,
  type EntryRow,
  getEntry,
  listEntries,
  litigatorBlocks,
  putEntry,
  setLitigatorBlocks,
} from '../../store/repos/suppression.js';
import { answer } from './list-routes.js';
import * as L from './list-schemas.js';
import { adminRoute } from './openapi.js';
import * as S from './schemas.js';
import * as V from './view-schemas.js';

type ListP = { org_id: string; list: SuppressionList };
const ACTOR = 'admin';
/** Bulk list files: streamed, never buffered, so no body limit applies to them. */
const STREAMED_TYPES = ['text/plain', 'text/csv', 'application/octet-stream'];

/** A number as suppression_entries stores it: E.164 digits without the plus. */
const STORED_NUMBER = /^[1-9][0-9]{6,14}$/;

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function entryView(orgId: string, e: EntryRow) {
  return {
    org_id: orgId,
    list: e.list,
    e164: `+${e.number}`,
    state: e.state,
    source: e.source,
    list_date: e.listed_on,
    added_at: e.added_at,
  };
}

function numberOf(raw: string): string {
  const digits = numberDigits(normalizeE164(raw) ?? raw);
  if (digits === null) throw errors.field(['path', 'e164'], 'not a storable number', raw);
  return digits;
}

/**
 * Suppression lists per organization (compliance-rules.md Part B §1.5, §4.3): one entry per
 * number and list with its source and list date; imports stream the body; every change is
 * audited, a removal with its reason.
 */
export function suppressionRoutes(admin: FastifyInstance, deps: AppDeps): void {
  admin.register(async (scope) => {
    scope.removeContentTypeParser(['text/plain']);
    scope.addContentTypeParser(STREAMED_TYPES, (_req, payload, done) => done(null, payload));
    const postSuppressionByListImport = validateRequest({
      params: S.SuppressionListParams,
      query: S.SuppressionImportQuery,
    });
    scope.post(
      '/admin/orgs/:org_id/suppression/:list/import',
      {
        preHandler: postSuppressionByListImport.hook,
      },
      async (req) => {
        const { params, query } = postSuppressionByListImport.read(req);
        const type =
          String(contentTypeOf(req) ?? '')
            .split(';')[0]
            ?.trim()
            .toLowerCase() ?? '';
        if (!STREAMED_TYPES.includes(type)) throw errors.unsupportedMediaType();
        await getOrg(deps.repos, params.org_id);
        const nowMs = deps.clock.now();
        // An empty body never reaches the parser: an empty file.
        const body = (req.body as Readable | undefined) ?? Readable.from([]);
        return importSuppressionList(deps.repos, body, {
          orgId: params.org_id,
          list: params.list,
          mode: query.mode ?? 'add',
          source: query.source ?? `import:${params.list}`,
          listedOn: query.list_date ?? isoDay(nowMs),
          state: query.state ?? null,
          nowMs,
          now: () => deps.clock.now(),
          actor: ACTOR,
          requestId: req.id,
        });
      },
    );
  });

  const getSuppressionSettings = validateRequest({ params: S.OrgIdParams });
  admin.get(
    '/admin/orgs/:org_id/suppression/settings',
    { preHandler: getSuppressionSettings.hook },
    async (req) => {
      const { params } = getSuppressionSettings.read(req);
      await getOrg(deps.repos, params.org_id);
      return { litigator_blocks: await litigatorBlocks(deps.store.db, params.org_id) };
    },
  );
  const putSuppressionSettings = validateRequest({
    params: S.OrgIdParams,
    body: S.SuppressionSettings,
  });
  admin.put(
    '/admin/orgs/:org_id/suppression/settings',
    { preHandler: putSuppressionSettings.hook },
    async (req) => {
      const { params, body } = putSuppressionSettings.read(req);
      await getOrg(deps.repos, params.org_id);
      const at = new Date(deps.clock.now());
      await deps.store.db.transaction(async (tx) => {
        await setLitigatorBlocks(tx, params.org_id, body.litigator_blocks, at);
        await writeAudit(tx, {
          orgId: params.org_id,
          actor: ACTOR,
          action: 'suppression.settings_changed',
          subjectType: 'org',
          subjectId: params.org_id,
          detail: { litigator_blocks: body.litigator_blocks },
          requestId: req.id,
          at,
        });
      });
      return { litigator_blocks: body.litigator_blocks };
    },
  );
  const getSuppressionByList = adminRoute(
    'suppression',
    "List the entries of one of an organization's lists",
    {
      params: S.SuppressionListParams,
      query: L.SuppressionListQuery,
      list: true,
      answer: V.SuppressionEntryItem,
      description: 'In number order; `state` narrows a state list to one state.',
    },
  );
  admin.get('/admin/orgs/:org_id/suppression/:list', getSuppressionByList.options, async (req) => {
    const { params, query } = getSuppressionByList.read(req);
    const after = decodeCursor(query.cursor, STORED_NUMBER);
    await getOrg(deps.repos, params.org_id);
    const rows = await listEntries(deps.store.db, params.org_id, params.list, {
      limit: query.limit + 1,
      after,
      state: query.state,
    });
    return answer(
      rows,
      query.limit,
      (e) => e.number,
      (e) => entryView(params.org_id, e),
    );
  });
  const getSuppressionByListByE164 = validateRequest({
    params: S.SuppressionEntryParams,
  });
  admin.get(
    '/admin/orgs/:org_id/suppression/:list/:e164',
    { preHandler: getSuppressionByListByE164.hook },
    async (req) => {
      const { params } = getSuppressionByListByE164.read(req);
      await getOrg(deps.repos, params.org_id);
      const e = await getEntry(deps.store.db, params.org_id, params.list, numberOf(params.e164));
      if (!e) throw errors.suppressionEntryNotFound();
      return entryView(params.org_id, e);
    },
  );
  const putSuppressionByListByE164 = validateRequest({
    params: S.SuppressionEntryParams,
    body: S.PutSuppressionEntry,
    bodyOptional: true,
  });
  admin.put(
    '/admin/orgs/:org_id/suppression/:list/:e164',
    {
      preHandler: putSuppressionByListByE164.hook,
    },
    async (req) => {
      const { params, body } = putSuppressionByListByE164.read(req);
      if (params.list === 'state' && !body.state) {
        throw errors.field(['body', 'state'], 'a state list entry needs its state', null);
      }
      await getOrg(deps.repos, params.org_id);
      const nowMs = deps.clock.now();
      const at = new Date(nowMs);
      const number = numberOf(params.e164);
      return deps.store.db.transaction(async (tx) => {
        const entry = {
          list: params.list,
          number,
          state: params.list === 'state' ? (body.state ?? null) : null,
          source: body.source ?? 'admin',
          listedOn: body.list_date ?? isoDay(nowMs),
          at,
        };
        await putEntry(tx, params.org_id, entry);
        await writeAudit(tx, {
          orgId: params.org_id,
          actor: ACTOR,
          action: 'suppression.added',
          subjectType: 'suppression_entry',
          subjectId: `+${number}`,
          detail: {
            list: params.list,
            source: entry.source,
            list_date: entry.listedOn,
            state: entry.state,
          },
          requestId: req.id,
          at,
        });
        const e = await getEntry(tx, params.org_id, params.list, number);
        return entryView(params.org_id, e as EntryRow);
      });
    },
  );
  const deleteSuppressionByListByE164 = validateRequest({
    params: S.SuppressionEntryParams,
    body: S.DeleteSuppressionEntry,
  });
  admin.delete(
    '/admin/orgs/:org_id/suppression/:list/:e164',
    {
      preHandler: deleteSuppressionByListByE164.hook,
    },
    async (req) => {
      const { params, body } = deleteSuppressionByListByE164.read(req);
      await getOrg(deps.repos, params.org_id);
      const at = new Date(deps.clock.now());
      const number = numberOf(params.e164);
      await deps.store.db.transaction(async (tx) => {
        if (!(await deleteEntry(tx, params.org_id, params.list, number))) {
          throw errors.suppressionEntryNotFound();
        }
        await writeAudit(tx, {
          orgId: params.org_id,
          actor: ACTOR,
          action: 'suppression.removed',
          subjectType: 'suppression_entry',
          subjectId: `+${number}`,
          detail: { list: params.list, reason: body.reason },
          requestId: req.id,
          at,
        });
      });
      return {
        org_id: params.org_id,
        list: params.list,
        e164: `+${number}`,
        removed: true,
        reason: body.reason,
      };
    },
  );
}
