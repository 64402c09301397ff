import type { FastifyInstance } from 'fastify';
import type { TSchema } from 'typebox';
import type { AppDeps } from '../../../deps.js';
import type { DrillWindow } from '../../../domain/reports/ports.js';
import type { ReportParams } from '../../../domain/reports/request.js';
import { resolveReport } from '../../../domain/reports/request.js';
import type { ReportCell } from '../../../domain/reports/types.js';
import { isoInZone } from '../../../domain/reports/view.js';
import { type ReportKind, TRAFFIC_GROUPS } from '../../../domain/reports/vocabulary.js';
import { listRoute } from '../shared/list-route.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { OrgIdParams } from '../shared/params.js';
import * as D from './drill-schema.js';

const DRILL_NOTE =
  'The rows behind one cell of the report: the report’s query (from, to, bucket, filters), the ' +
  'cell’s `bucket_start`, and its group keys as parameters of the same names. Newest first.';
const DRILL_RANGE_MS = 32 * 86_400_000;

/** What every drill-down's query has besides the report's: the cell's bucket and a page. */
type DrillQ = { bucket_start?: string | undefined; limit: number; cursor?: string | undefined };

/** What resolving a report reads: the organization's zone and the campaign filter. */
export const reportLookups = (deps: AppDeps) => ({
  orgTimeZone: deps.queries.reports.orgTimeZone,
  findCampaign: deps.repos.campaigns.findCampaign,
  db: deps.repos.db,
});

/** A drill-down's cell: with `bucket_start` and no range, the range is that bucket's. */
async function cellOf<G extends string>(
  deps: AppDeps,
  orgId: string,
  kind: ReportKind,
  q: ReportParams & { bucket_start?: string | undefined },
  keys: Partial<Record<G, string | undefined>>,
): Promise<ReportCell<G>> {
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
    reportLookups(deps),
    orgId,
    kind,
    { ...ranged, bucket: q.bucket === 'none' ? 'none' : ranged.bucket },
    new Date(deps.clock.now()),
  );
  const cellKeys: Partial<Record<G, string | null>> = {};
  for (const [k, v] of Object.entries(keys) as [G, string | undefined][]) {
    if (v !== undefined) cellKeys[k] = v === '' ? null : v;
  }
  return { query: query as ReportCell<G>['query'], bucketStart: start, keys: cellKeys };
}

/**
 * One drill-down: the rows behind a cell of a `kind` report, a page at a time. `keys` are the
 * group keys of that report, read from the query by name; `rows` reads a page of them.
 */
function drillDown<G extends string, T extends { id: string }>(
  admin: FastifyInstance,
  deps: AppDeps,
  path: string,
  summary: string,
  spec: { query: TSchema; item: TSchema; description: string },
  kind: ReportKind,
  keys: readonly G[],
  rows: (orgId: string, cell: ReportCell<G>, w: DrillWindow) => Promise<T[]>,
  view: (row: T) => unknown,
): void {
  listRoute(admin, `${ORG_PREFIX}/reports/${path}`, 'reports', summary, {
    doc: {
      params: OrgIdParams,
      query: spec.query,
      answer: spec.item,
      description: spec.description,
    },
    rows: async ({ params, query: q, after, take }) => {
      const query = q as ReportParams & DrillQ & Partial<Record<G, string>>;
      const picked: Partial<Record<G, string | undefined>> = {};
      for (const k of keys) picked[k] = query[k];
      const cell = await cellOf<G>(deps, params.org_id, kind, query, picked);
      return rows(params.org_id, cell, { limit: take, after });
    },
    keyOf: (row) => row.id,
    view,
  });
}

/** The rows behind a cell of the traffic report (sessions, calls) and of the touch report. */
export function drillDownRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const reports = deps.queries.reports;
  // The traffic groups a cell names by parameter (campaign and source are the report's filters;
  // a buyer cell lists the calls and sessions of its other keys).
  const TRAFFIC_KEYS = TRAFFIC_GROUPS.filter(
    (g) => g !== 'campaign' && g !== 'source' && g !== 'buyer',
  );

  drillDown(
    admin,
    deps,
    'traffic/sessions',
    'The sessions behind a traffic cell',
    {
      query: D.TrafficCellQuery,
      item: D.SessionCellItem,
      description: `${DRILL_NOTE} Sessions pruned by retention are counted but no longer listed.`,
    },
    'traffic',
    TRAFFIC_KEYS,
    (org, cell, w) => reports.cellSessions(org, cell as never, w),
    (s) => ({
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
    }),
  );

  drillDown(
    admin,
    deps,
    'traffic/calls',
    'The calls behind a traffic cell',
    { query: D.TrafficCellQuery, item: D.CallCellItem, description: DRILL_NOTE },
    'traffic',
    TRAFFIC_KEYS,
    (org, cell, w) => reports.cellCalls(org, cell as never, w),
    (c) => ({
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
    }),
  );

  touchDrillDown(admin, deps);
}

/** The touches behind a cell of the touch report. */
function touchDrillDown(admin: FastifyInstance, deps: AppDeps): void {
  const reports = deps.queries.reports;
  drillDown(
    admin,
    deps,
    'touches/rows',
    'The touches behind a touch-report cell',
    { query: D.TouchCellQuery, item: D.TouchCellItem, description: DRILL_NOTE },
    'touches',
    D.TOUCH_CELL_KEYS,
    (org, cell, w) => reports.cellTouches(org, cell as never, w),
    (t) => ({
      touch_id: t.id,
      campaign_code: t.campaignCode,
      decided_at: isoInZone(t.decidedAt, 'UTC'),
      to_e164: t.toE164,
      channel: t.channel,
      purpose: t.purpose,
      outcome: t.outcome,
      reasons: t.reasons,
      state: t.state,
    }),
  );
}
