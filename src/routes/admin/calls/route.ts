import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../../deps.js';
import { recordAdminCall } from '../../../domain/admin/calls.js';
import { callView } from '../../../domain/admin/views.js';
import { errors } from '../../../errors.js';
import { adminContext } from '../shared/context.js';
import { commonFilter } from '../shared/filters.js';
import { listRoute } from '../shared/list-route.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { OrgIdParams } from '../shared/params.js';
import {
  CallDetail,
  CallItem,
  CallListQuery,
  CallParams,
  CallRecorded,
  RecordCall,
} from './schema.js';

/** Recording a call as a carrier would, the list of calls and a call's own page. */
export function callRoutes(scope: FastifyInstance, deps: AppDeps): void {
  const postCalls = adminRoute('calls', 'Record an inbound call (as a carrier would)', {
    params: OrgIdParams,
    body: RecordCall,
    status: 201,
    answer: CallRecorded,
  });
  scope.post(`${ORG_PREFIX}/calls`, postCalls.options, async (req, reply) => {
    const { params, body } = postCalls.read(req);
    return reply
      .code(201)
      .send(await recordAdminCall(adminContext(deps, req), params.org_id, body));
  });

  listRoute(
    scope,
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
        deps.queries.activity.listCalls(p.params.org_id, {
          ...(await commonFilter(deps, p)),
          attribution: p.query.attribution,
          outcome: p.query.outcome,
          source: p.query.source,
        }),
      keyOf: (r) => r.call.id,
      view: callView,
    },
  );

  callDetailRoute(scope, deps);
}

/** A call with its attribution, its offers to buyers and its buyer reports. */
function callDetailRoute(scope: FastifyInstance, deps: AppDeps): void {
  const q = deps.queries.activity;
  const getCallsByCallId = adminRoute(
    'calls',
    'Show a call with its attribution, its offers to buyers and its buyer reports',
    { params: CallParams, answer: CallDetail },
  );
  scope.get(`${ORG_PREFIX}/calls/:call_id`, getCallsByCallId.options, async (req) => {
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
}
