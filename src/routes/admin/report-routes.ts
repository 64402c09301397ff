import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../deps.js';
import type { ReportParams } from '../../domain/reports/request.js';
import { resolveReport } from '../../domain/reports/request.js';
import type { ReportCell, TouchQuery, TrafficQuery } from '../../domain/reports/types.js';
import { isoInZone, reportCsv, reportJson } from '../../domain/reports/view.js';
import type { ReportKind } from '../../domain/reports/vocabulary.js';
import { adminRoute } from './openapi.js';
import { decodeCursor, encodeCursor, ID_SHAPE } from './paging.js';
import * as R from './report-schemas.js';
import * as S from './schemas.js';

const CSV_NOTE =
  'With `format=csv`: `text/csv`, a header row then one line per row (totals only in JSON).';
const DRILL_NOTE =
  'The rows behind one cell of the report: the report’s query (from, to, bucket, filters), the ' +
  'cell’s `bucket_start`, and its group keys as parameters of the same names. Newest first.';
const DRILL_RANGE_MS = 32 * 86_400_000;

/** GET …/reports/traffic and …/reports/touches, and the drill-down under each (contract §8). */
export function reportRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const now = () => new Date(deps.clock.now());
  // What resolving a report reads: the organization's zone and the campaign filter.
  const lookups = {
    orgTimeZone: deps.queries.reports.orgTimeZone,
    findCampaign: deps.repos.campaigns.findCampaign,
    db: deps.repos.db,
  };

  /** A drill-down's cell: with `bucket_start` and no range, the range is that bucket's. */
  const cellOf = async <G extends string>(
    orgId: string,
    kind: ReportKind,
    q: ReportParams & { bucket_start?: string | undefined },
    keys: Partial<Record<G, string | undefined>>,
  ): Promise<ReportCell<G>> => {
    const start = q.bucket_start ? new Date(q.bucket_start) : null;
    const ranged =
      start && !q.from && !q.to
        ? {
            ...q,
            from: start.toISOString(),
            to: new Date(start.getTime() + DRILL_RANGE_MS).toISOString(),
          }
        : q;
    const query = await resolveReport(
      lookups,
      orgId,
      kind,
      { ...ranged, bucket: q.bucket === 'none' ? 'none' : ranged.bucket },
      now(),
    );
    const cellKeys: Partial<Record<G, string | null>> = {};
    for (const [k, v] of Object.entries(keys) as [G, string | undefined][]) {
      if (v !== undefined) cellKeys[k] = v === '' ? null : v;
    }
    return { query: query as ReportCell<G>['query'], bucketStart: start, keys: cellKeys };
  };

  const page = <T extends { id: string }, V>(
    p: { items: T[]; nextCursor: string | null },
    view: (t: T) => V,
  ) => ({
    items: p.items.map(view),
    next_cursor: p.nextCursor ? encodeCursor(p.nextCursor) : null,
  });

  const traffic = adminRoute('reports', 'Traffic: sessions, calls and buyer outcomes', {
    params: S.OrgIdParams,
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
    params: S.OrgIdParams,
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

  const sessions = adminRoute('reports', 'The sessions behind a traffic cell', {
    params: S.OrgIdParams,
    query: R.TrafficCellQuery,
    list: true,
    answer: R.SessionCellItem,
    description: `${DRILL_NOTE} Sessions pruned by retention are counted but no longer listed.`,
  });
  admin.get('/admin/orgs/:org_id/reports/traffic/sessions', sessions.options, async (req) => {
    const { params, query } = sessions.read(req);
    const after = decodeCursor(query.cursor, ID_SHAPE);
    const { medium, utm_campaign, landing_path, attribution, tracking_number } = query;
    const cell = await cellOf(params.org_id, 'traffic', query, {
      medium,
      utm_campaign,
      landing_path,
      attribution,
      tracking_number,
    });
    const p = await deps.queries.reports.cellSessions(params.org_id, cell as never, {
      limit: query.limit,
      after,
    });
    return page(p, (s) => ({
      dni_session_id: s.id,
      campaign_code: s.campaignCode,
      created_at: s.createdAt.toISOString(),
      tracking_number: s.trackingNumber,
      kind: s.kind,
      ambiguous: s.ambiguous,
      hits: s.hits,
      source: s.source,
      medium: s.medium,
      utm_campaign: s.utmCampaign,
      landing_path: s.landingPath,
    }));
  });

  const calls = adminRoute('reports', 'The calls behind a traffic cell', {
    params: S.OrgIdParams,
    query: R.TrafficCellQuery,
    list: true,
    answer: R.CallCellItem,
    description: DRILL_NOTE,
  });
  admin.get('/admin/orgs/:org_id/reports/traffic/calls', calls.options, async (req) => {
    const { params, query } = calls.read(req);
    const after = decodeCursor(query.cursor, ID_SHAPE);
    const { medium, utm_campaign, landing_path, attribution, tracking_number } = query;
    const cell = await cellOf(params.org_id, 'traffic', query, {
      medium,
      utm_campaign,
      landing_path,
      attribution,
      tracking_number,
    });
    const p = await deps.queries.reports.cellCalls(params.org_id, cell as never, {
      limit: query.limit,
      after,
    });
    return page(p, (c) => ({
      call_id: c.id,
      campaign_code: c.campaignCode,
      started_at: c.startedAt.toISOString(),
      from: c.fromNumber,
      tracking_number: c.trackingNumber,
      attribution: c.attribution,
      dni_session_id: c.dniSessionId,
      source: c.source,
      first_time: c.firstTime,
      status: c.status,
      duration_seconds: c.durationSeconds,
      disposition: c.disposition,
    }));
  });

  const touchRows = adminRoute('reports', 'The touches behind a touch-report cell', {
    params: S.OrgIdParams,
    query: R.TouchCellQuery,
    list: true,
    answer: R.TouchCellItem,
    description: DRILL_NOTE,
  });
  admin.get('/admin/orgs/:org_id/reports/touches/rows', touchRows.options, async (req) => {
    const { params, query } = touchRows.read(req);
    const after = decodeCursor(query.cursor, ID_SHAPE);
    const { channel, purpose, outcome, reason, state } = query;
    const cell = await cellOf(params.org_id, 'touches', query, {
      channel,
      purpose,
      outcome,
      reason,
      state,
    });
    const p = await deps.queries.reports.cellTouches(params.org_id, cell as never, {
      limit: query.limit,
      after,
    });
    return page(p, (t) => ({
      touch_id: t.id,
      campaign_code: t.campaignCode,
      decided_at: isoInZone(t.decidedAt, 'UTC'),
      to_e164: t.toE164,
      channel: t.channel,
      purpose: t.purpose,
      outcome: t.outcome,
      reasons: t.reasons,
      state: t.state,
    }));
  });
}
