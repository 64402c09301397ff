import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import type { TimeRange } from '../../../domain/admin/queries.js';
import { callView, consentEventView, touchView } from '../../../domain/admin/views.js';
import { normalizeE164 } from '../../../domain/phone/e164.js';
import { errors } from '../../../errors.js';
import * as B from '../buyers/schema.js';
import { CallItem, CallListQuery, CallParams } from '../calls/schema.js';
import { ConsentEventItem, ConsentListQuery } from '../consents/schema.js';
import { listRoute, opaqueCursor } from '../shared/list-route.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { OrgIdParams } from '../shared/params.js';
import { TouchItem, TouchListQuery } from '../touches/schema.js';

type RangeQ = { since?: string; until?: string };

const rangeOf = (q: RangeQ): TimeRange => ({
  since: q.since ? new Date(q.since) : undefined,
  until: q.until ? new Date(q.until) : undefined,
});

/** Lists of calls, touches and consent events, and a call's own page. */
export function activityListRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const q = deps.queries.activity;

  /** A campaign filter names the campaign by code; a code the organization lacks is a 404. */
  const campaignIdOf = async (orgId: string, code: string | undefined) => {
    if (code === undefined) return undefined;
    const c = await deps.queries.config.findCampaign(orgId, code);
    if (!c) throw errors.campaignNotFound();
    return c.id;
  };

  /** What the call and touch lists filter alike: the page, the campaign, the status, the time. */
  const commonFilter = async <St>(p: {
    params: { org_id: string };
    query: RangeQ & { campaign?: string | undefined; status?: St };
    after: string | undefined;
    take: number;
  }) => ({
    limit: p.take,
    after: p.after,
    campaignId: await campaignIdOf(p.params.org_id, p.query.campaign),
    status: p.query.status,
    ...rangeOf(p.query),
  });

  listRoute(
    admin,
    `${ORG_PREFIX}/calls`,
    'calls',
    'List calls with their attribution, latest start first',
    {
      doc: {
        params: OrgIdParams,
        query: CallListQuery,
        answer: CallItem,
        description:
          'Ordered by the time the call started, latest first (a call recorded late takes its place in time); `since`/`until` apply to that time.',
      },
      rows: async (p) =>
        q.listCalls(p.params.org_id, {
          ...(await commonFilter(p)),
          attribution: p.query.attribution,
          outcome: p.query.outcome,
          source: p.query.source,
        }),
      keyOf: (r) => r.call.id,
      view: callView,
    },
  );

  const getCallsByCallId = adminRoute(
    'calls',
    'Show a call with its attribution, its offers to buyers and its buyer reports',
    { params: CallParams, answer: B.CallDetail },
  );
  admin.get(`${ORG_PREFIX}/calls/:call_id`, getCallsByCallId.options, async (req) => {
    const { params } = getCallsByCallId.read(req);
    const call = await q.findCall(params.org_id, params.call_id);
    if (!call) throw errors.callNotFound();
    const offers = await deps.repos.routing.offersOfCall(
      deps.repos.db,
      params.org_id,
      call.call.id,
    );
    const reports = await q.callReports(params.org_id, call.call.id);
    return {
      ...callView(call),
      offers: offers.map((o) => ({
        buyer_id: o.buyerId,
        offered_at: o.offeredAt.toISOString(),
        outcome: o.outcome,
        duration_seconds: o.durationSeconds,
      })),
      buyer_reports: reports.map((r) => ({
        event_id: r.id,
        report_id: r.reportId,
        disposition: r.disposition,
        notes: r.notes,
        key_id: r.keyId,
        at: r.at.toISOString(),
      })),
    };
  });

  listRoute(
    admin,
    `${ORG_PREFIX}/touches`,
    'touches',
    'List outbound touches with their checks and dispatch state',
    {
      doc: {
        params: OrgIdParams,
        query: TouchListQuery,
        answer: TouchItem,
        description: '`since`/`until` apply to the time the touch was decided.',
      },
      rows: async (p) =>
        q.listTouches(p.params.org_id, {
          ...(await commonFilter(p)),
          dispatchStatus: p.query.dispatch_status,
          toE164: p.query.to ? (normalizeE164(p.query.to) ?? p.query.to) : undefined,
        }),
      keyOf: (r) => r.touch.id,
      view: (r) => touchView(r.touch, r.campaignCode),
    },
  );

  listRoute(
    admin,
    `${ORG_PREFIX}/consents`,
    'consents',
    'List consent events (grants and revocations), newest first',
    {
      doc: {
        params: OrgIdParams,
        query: ConsentListQuery,
        answer: ConsentEventItem,
        description:
          'Every event as recorded; `since`/`until` apply to the time it was recorded. A contact’s standing is at GET …/consents/{e164}.',
      },
      cursor: opaqueCursor(/^[1-9][0-9]{0,15}$/),
      rows: ({ params, query, after, take }) =>
        q.listConsentEvents(params.org_id, {
          limit: take,
          after: after === undefined ? undefined : Number(after),
          e164: query.e164 ? (normalizeE164(query.e164) ?? query.e164) : undefined,
          kind: query.kind,
          ...rangeOf(query),
        }),
      keyOf: (r) => String(r.seq),
      view: (r) => consentEventView(r.e164, r),
    },
  );
}
