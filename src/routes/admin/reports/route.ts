import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { resolveReport } from '../../../domain/reports/request.js';
import type { TouchQuery, TrafficQuery } from '../../../domain/reports/types.js';
import { reportCsv, reportJson } from '../../../domain/reports/view.js';
import { adminRoute } from '../shared/openapi.js';
import { OrgIdParams } from '../shared/params.js';
import { drillDownRoutes, reportLookups } from './drill.js';
import * as R from './schema.js';

const CSV_NOTE =
  'With `format=csv`: `text/csv`, a header row then one line per row (totals only in JSON).';
/** GET …/reports/traffic and …/reports/touches, and the drill-down under each (contract §8). */
export function reportRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const now = () => new Date(deps.clock.now());
  const lookups = reportLookups(deps);

  const traffic = adminRoute('reports', 'Traffic: sessions, calls and buyer outcomes', {
    params: OrgIdParams,
    query: R.TrafficQuery,
    answer: R.TrafficAnswer,
    media: { 'text/csv': Type.String({ description: 'format=csv' }) },
    description: `Buckets in the organization's time zone; docs/reporting.md defines every counter. ${CSV_NOTE}`,
  });
  admin.get('/admin/orgs/:org_id/reports/traffic', traffic.options, async (req, reply) => {
    const { params, query } = traffic.read(req);
    const q = (await resolveReport(
      lookups,
      params.org_id,
      'traffic',
      query,
      now(),
    )) as TrafficQuery;
    const report = await deps.queries.reports.trafficReport(params.org_id, q);
    if (query.format === 'csv')
      return reply.type('text/csv; charset=utf-8').send(reportCsv(q, report));
    return reportJson(params.org_id, q, report);
  });

  const touches = adminRoute('reports', 'Outbound touches: placed, blocked and why', {
    params: OrgIdParams,
    query: R.TouchQuery,
    answer: R.TouchAnswer,
    media: { 'text/csv': Type.String({ description: 'format=csv' }) },
    description: `Grouped by reason, a touch counts under each of its reasons; totals count it once. ${CSV_NOTE}`,
  });
  admin.get('/admin/orgs/:org_id/reports/touches', touches.options, async (req, reply) => {
    const { params, query } = touches.read(req);
    const q = (await resolveReport(lookups, params.org_id, 'touches', query, now())) as TouchQuery;
    const report = await deps.queries.reports.touchReport(params.org_id, q);
    if (query.format === 'csv')
      return reply.type('text/csv; charset=utf-8').send(reportCsv(q, report));
    return reportJson(params.org_id, q, report);
  });

  drillDownRoutes(admin, deps);
}
