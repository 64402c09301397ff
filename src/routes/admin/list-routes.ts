import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { keyView, orgView } from '../../domain/admin/orgs-keys.js';
import { campaignSummary, numberView } from '../../domain/admin/views.js';
import { normalizeE164 } from '../../domain/phone/e164.js';
import { errors } from '../../errors.js';
import * as L from './list-schemas.js';
import { adminRoute } from './openapi.js';
import { ORG_PREFIX } from './org-scope.js';
import { decodeCursor, encodeCursor, ID_SHAPE, pageOf } from './paging.js';
import * as S from './schemas.js';
import * as V from './view-schemas.js';

export interface PageQ {
  limit: number;
  cursor?: string;
}

/** `{items, next_cursor}` from rows read with one row past the page (paging.ts). */
export function answer<R, V>(rows: R[], limit: number, keyOf: (r: R) => string, view: (r: R) => V) {
  const { items, nextCursor } = pageOf(rows, limit, (r) => encodeCursor(keyOf(r)));
  return { items: items.map(view), next_cursor: nextCursor };
}

const E164_SHAPE = /^\+[1-9][0-9]{1,14}$/;

/** Lists and shows of organizations and keys by id: read only, never a secret. */
export function configListRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const q = deps.queries.config;

  const getOrgs = adminRoute('organizations', 'List organizations, newest first', {
    query: L.PageQuery,
    list: true,
    answer: V.OrgItem,
  });
  admin.get('/admin/orgs', getOrgs.options, async (req) => {
    const { query } = getOrgs.read(req);
    const after = decodeCursor(query.cursor, ID_SHAPE);
    const rows = await q.listOrgs({ limit: query.limit + 1, after });
    return answer(rows, query.limit, (r) => r.id, orgView);
  });

  const getKeysByKeyId = adminRoute('keys', 'Show an API key (never the key itself)', {
    params: S.KeyIdParams,
    answer: V.KeyItem,
  });
  admin.get('/admin/keys/:key_id', getKeysByKeyId.options, async (req) => {
    const { params } = getKeysByKeyId.read(req);
    const key = await q.findKey(params.key_id);
    if (!key) throw errors.keyNotFound();
    return keyView(key);
  });
}

/** An organization's keys, campaigns and numbers (under the org-scoped plugin). */
export function orgConfigListRoutes(scope: FastifyInstance, deps: AppDeps): void {
  const q = deps.queries.config;
  const now = () => new Date(deps.clock.now());

  const getKeys = adminRoute('keys', "List an organization's API keys (never the key itself)", {
    params: S.OrgIdParams,
    query: L.KeyListQuery,
    list: true,
    answer: V.KeyItem,
  });
  scope.get(`${ORG_PREFIX}/keys`, getKeys.options, async (req) => {
    const { params, query } = getKeys.read(req);
    const after = decodeCursor(query.cursor, ID_SHAPE);
    const rows = await q.listKeys(params.org_id, {
      limit: query.limit + 1,
      after,
      status: query.status,
      now: now(),
    });
    return answer(rows, query.limit, (r) => r.id, keyView);
  });

  const getCampaigns = adminRoute(
    'campaigns',
    "List an organization's campaigns with their pool size",
    { params: S.OrgIdParams, query: L.PageQuery, list: true, answer: V.CampaignItem },
  );
  scope.get(`${ORG_PREFIX}/campaigns`, getCampaigns.options, async (req) => {
    const { params, query } = getCampaigns.read(req);
    const after = decodeCursor(query.cursor, ID_SHAPE);
    const rows = await q.listCampaigns(params.org_id, { limit: query.limit + 1, after });
    return answer(rows, query.limit, (r) => r.campaign.id, campaignSummary);
  });

  const campaignOf = async (orgId: string, code: string) => {
    const c = await q.findCampaign(orgId, code);
    if (!c) throw errors.campaignNotFound();
    return c;
  };

  const getCampaignsByCodeNumbers = adminRoute(
    'campaigns',
    "List a campaign's numbers with their current holder",
    {
      params: S.CampaignParams,
      query: L.NumberListQuery,
      list: true,
      answer: V.NumberItem,
      description:
        'In number order. `holder` is the DNI session holding the number now (null when free); `held_until` is when it frees.',
    },
  );
  scope.get(
    `${ORG_PREFIX}/campaigns/:code/numbers`,
    getCampaignsByCodeNumbers.options,
    async (req) => {
      const { params, query } = getCampaignsByCodeNumbers.read(req);
      const after = decodeCursor(query.cursor, E164_SHAPE);
      const c = await campaignOf(params.org_id, params.code);
      const rows = await q.listNumbers(c.id, {
        limit: query.limit + 1,
        after,
        role: query.role,
        state: query.state,
        now: now(),
      });
      return answer(rows, query.limit, (r) => r.number.e164, numberView);
    },
  );

  const getCampaignsByCodeNumbersByE164 = adminRoute(
    'campaigns',
    'Show one number of a campaign with its current holder',
    { params: L.NumberParams, answer: V.NumberItem },
  );
  scope.get(
    `${ORG_PREFIX}/campaigns/:code/numbers/:e164`,
    getCampaignsByCodeNumbersByE164.options,
    async (req) => {
      const { params } = getCampaignsByCodeNumbersByE164.read(req);
      const c = await campaignOf(params.org_id, params.code);
      const n = await q.findNumber(c.id, normalizeE164(params.e164) ?? params.e164, now());
      if (!n) throw errors.numberNotFound();
      return numberView(n);
    },
  );
}
