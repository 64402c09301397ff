import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { normalizeE164 } from '../../../domain/phone/e164.js';
import {
  putSuppressionEntry,
  removeSuppressionEntry,
  setLitigatorBlocks,
} from '../../../domain/suppression/entries.js';
import { numberDigits } from '../../../domain/suppression/lines.js';
import type { SuppressionEntry } from '../../../domain/suppression/ports.js';
import { errors } from '../../../errors.js';
import { listRoute, opaqueCursor } from '../shared/list-route.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { OrgIdParams } from '../shared/params.js';
import { ACTOR, isoDay, suppressionImportRoute } from './import.js';
import {
  DeleteSuppressionEntry,
  PutSuppressionEntry,
  SuppressionEntryItem,
  SuppressionEntryParams,
  SuppressionEntryRemoved,
  SuppressionListParams,
  SuppressionListQuery,
  SuppressionSettings,
  SuppressionSettingsView,
} from './schema.js';

/** A number as suppression_entries stores it: E.164 digits without the plus. */
const STORED_NUMBER = /^[1-9][0-9]{6,14}$/;

function entryView(orgId: string, e: SuppressionEntry) {
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

/** Who changes a list, and when: the audit line of every change. */
function changeBy(deps: AppDeps, req: FastifyRequest, orgId: string) {
  return { orgId, actor: ACTOR, requestId: req.id, at: new Date(deps.clock.now()) };
}

/**
 * Suppression lists per organization (compliance-rules.md Part B §1.5, §4.3): one entry per
 * number and list with its source and list date; imports stream the body; every change is
 * audited, a removal with its reason.
 */
export function suppressionRoutes(admin: FastifyInstance, deps: AppDeps): void {
  suppressionImportRoute(admin, deps);
  settingsRoutes(admin, deps);
  entryReadRoutes(admin, deps);
  entryWriteRoutes(admin, deps);
}

/** Whether the litigator list blocks, per organization. */
function settingsRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const getSuppressionSettings = adminRoute(
    'suppression',
    "The organization's suppression settings",
    { params: OrgIdParams, answer: SuppressionSettingsView },
  );
  admin.get(`${ORG_PREFIX}/suppression/settings`, getSuppressionSettings.options, async (req) => {
    const { params } = getSuppressionSettings.read(req);
    return { litigator_blocks: await deps.queries.suppression.litigatorBlocks(params.org_id) };
  });
  const putSuppressionSettings = adminRoute(
    'suppression',
    'Change the suppression settings (whether the litigator list blocks)',
    { params: OrgIdParams, body: SuppressionSettings, answer: SuppressionSettingsView },
  );
  admin.put(`${ORG_PREFIX}/suppression/settings`, putSuppressionSettings.options, async (req) => {
    const { params, body } = putSuppressionSettings.read(req);
    await setLitigatorBlocks(deps.repos, changeBy(deps, req, params.org_id), body.litigator_blocks);
    return { litigator_blocks: body.litigator_blocks };
  });
}

/** A list's entries in number order, and one entry. */
function entryReadRoutes(admin: FastifyInstance, deps: AppDeps): void {
  listRoute(
    admin,
    `${ORG_PREFIX}/suppression/:list`,
    'suppression',
    "List the entries of one of an organization's lists",
    {
      doc: {
        params: SuppressionListParams,
        query: SuppressionListQuery,
        answer: SuppressionEntryItem,
        description: 'In number order; `state` narrows a state list to one state.',
      },
      cursor: opaqueCursor(STORED_NUMBER),
      rows: ({ params, query, after, take }) =>
        deps.queries.suppression.listEntries(params.org_id, params.list, {
          limit: take,
          after,
          state: query.state,
        }),
      keyOf: (e) => e.number,
      view: (e, { params }) => entryView(params.org_id, e),
    },
  );
  const getSuppressionByListByE164 = adminRoute('suppression', 'Show one entry of a list', {
    params: SuppressionEntryParams,
    answer: SuppressionEntryItem,
  });
  admin.get(
    `${ORG_PREFIX}/suppression/:list/:e164`,
    getSuppressionByListByE164.options,
    async (req) => {
      const { params } = getSuppressionByListByE164.read(req);
      const e = await deps.queries.suppression.getEntry(
        params.org_id,
        params.list,
        numberOf(params.e164),
      );
      if (!e) throw errors.suppressionEntryNotFound();
      return entryView(params.org_id, e);
    },
  );
}

/** Adding, changing and removing one number of a list. */
function entryWriteRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const putSuppressionByListByE164 = adminRoute(
    'suppression',
    'Add a number to a list, or change its entry',
    {
      params: SuppressionEntryParams,
      body: PutSuppressionEntry,
      bodyOptional: true,
      answer: SuppressionEntryItem,
      description: 'A state list entry needs `state`.',
    },
  );
  admin.put(
    `${ORG_PREFIX}/suppression/:list/:e164`,
    putSuppressionByListByE164.options,
    async (req) => {
      const { params, body } = putSuppressionByListByE164.read(req);
      if (params.list === 'state' && !body.state) {
        throw errors.field(['body', 'state'], 'a state list entry needs its state', null);
      }
      const nowMs = deps.clock.now();
      const e = await putSuppressionEntry(deps.repos, changeBy(deps, req, params.org_id), {
        list: params.list,
        number: numberOf(params.e164),
        state: params.list === 'state' ? (body.state ?? null) : null,
        source: body.source ?? 'admin',
        listedOn: body.list_date ?? isoDay(nowMs),
      });
      return entryView(params.org_id, e);
    },
  );
  const deleteSuppressionByListByE164 = adminRoute(
    'suppression',
    'Remove a number from a list, with the reason (audited)',
    {
      params: SuppressionEntryParams,
      body: DeleteSuppressionEntry,
      answer: SuppressionEntryRemoved,
    },
  );
  admin.delete(
    `${ORG_PREFIX}/suppression/:list/:e164`,
    deleteSuppressionByListByE164.options,
    async (req) => {
      const { params, body } = deleteSuppressionByListByE164.read(req);
      const number = numberOf(params.e164);
      await removeSuppressionEntry(
        deps.repos,
        changeBy(deps, req, params.org_id),
        params.list,
        number,
        body.reason,
      );
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
