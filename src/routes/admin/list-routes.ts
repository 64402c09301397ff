import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { keyView, orgView } from '../../domain/admin/orgs-keys.js';
import { campaignSummary, numberView } from '../../domain/admin/views.js';
import { normalizeE164 } from '../../domain/phone/e164.js';
import { errors } from '../../errors.js';
import { CampaignItem, NumberItem, NumberListQuery, NumberParams } from './campaigns/schema.js';
import { KeyIdParams, KeyItem, KeyListQuery } from './keys/schema.js';
import { OrgItem } from './orgs/schema.js';
import { PageQuery } from './shared/list-query.js';
import { listRoute, opaqueCursor } from './shared/list-route.js';
import { adminRoute } from './shared/openapi.js';
import { ORG_PREFIX } from './shared/org-scope.js';
import { CampaignParams, OrgIdParams } from './shared/params.js';

const E164_SHAPE = /^\+[1-9][0-9]{1,14}$/;

/** Lists and shows of organizations and keys by id: read only, never a secret. */
export function configListRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const q = deps.queries.config;

  listRoute(admin, '/admin/orgs', 'organizations', 'List organizations, newest first', {
    doc: { query: PageQuery, answer: OrgItem },
    rows: ({ after, take }) => q.listOrgs({ limit: take, after }),
    keyOf: (r) => r.id,
    view: orgView,
  });

  const getKeysByKeyId = adminRoute('keys', 'Show an API key (never the key itself)', {
    params: KeyIdParams,
    answer: KeyItem,
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

  listRoute(
    scope,
    `${ORG_PREFIX}/keys`,
    'keys',
    "List an organization's API keys (never the key itself)",
    {
      doc: { params: OrgIdParams, query: KeyListQuery, answer: KeyItem },
      rows: ({ params, query, after, take }) =>
        q.listKeys(params.org_id, { limit: take, after, status: query.status, now: now() }),
      keyOf: (r) => r.id,
      view: keyView,
    },
  );

  listRoute(
    scope,
    `${ORG_PREFIX}/campaigns`,
    'campaigns',
    "List an organization's campaigns with their pool size",
    {
      doc: { params: OrgIdParams, query: PageQuery, answer: CampaignItem },
      rows: ({ params, after, take }) => q.listCampaigns(params.org_id, { limit: take, after }),
      keyOf: (r) => r.campaign.id,
      view: campaignSummary,
    },
  );

  const campaignOf = async (orgId: string, code: string) => {
    const c = await q.findCampaign(orgId, code);
    if (!c) throw errors.campaignNotFound();
    return c;
  };

  listRoute(
    scope,
    `${ORG_PREFIX}/campaigns/:code/numbers`,
    'campaigns',
    "List a campaign's numbers with their current holder",
    {
      doc: {
        params: CampaignParams,
        query: NumberListQuery,
        answer: NumberItem,
        description:
          'In number order. `holder` is the DNI session holding the number now (null when free); `held_until` is when it frees.',
      },
      cursor: opaqueCursor(E164_SHAPE),
      rows: async ({ params, query, after, take }) => {
        const c = await campaignOf(params.org_id, params.code);
        return q.listNumbers(c.id, {
          limit: take,
          after,
          role: query.role,
          state: query.state,
          now: now(),
        });
      },
      keyOf: (r) => r.number.e164,
      view: numberView,
    },
  );

  const getCampaignsByCodeNumbersByE164 = adminRoute(
    'campaigns',
    'Show one number of a campaign with its current holder',
    { params: NumberParams, answer: NumberItem },
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
