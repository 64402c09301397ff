import type { ReportQueries } from '../../domain/reports/ports.js';
import type {
  Report,
  ReportQuery,
  TouchQuery,
  TouchRow,
  TrafficQuery,
  TrafficRow,
} from '../../domain/reports/types.js';
import {
  TOUCH_METRICS,
  type TrafficGroup,
  type TrafficMetric,
} from '../../domain/reports/vocabulary.js';
import type { Store } from '../db.js';
import { cellCalls, cellSessions, cellTouches } from './report-cells.js';
import { trafficRates } from './report-rates.js';
import {
  bucketEndExpr,
  bucketExpr,
  bucketOfQuarter,
  GROUP_COLUMN,
  grainFor,
  keyValue,
  num,
  TRAFFIC_CELL_METRICS,
  TRAFFIC_KEY_COLUMNS,
} from './report-sql.js';

type Row = Record<string, unknown>;

/** The range widened to whole buckets in the zone: [floor(from), ceil(to)). */
export async function alignRange(store: Store, q: ReportQuery): Promise<{ from: Date; to: Date }> {
  const none = q.bucket === 'none';
  const floor = (p: string) =>
    none
      ? `report_quarter(${p}::timestamptz)`
      : bucketExpr(q.bucket, `${p}::timestamptz`, '$3::text');
  const end = none ? `(t + interval '15 minutes')` : bucketEndExpr(q.bucket, 't', '$3::text');
  const [r] = await store.query<{ f: Date | string; t: Date | string }>(
    `select f, case when t < $2::timestamptz then ${end} else t end as t
       from (select ${floor('$1')} as f, ${floor('$2')} as t) x`,
    none ? [q.from, q.to] : [q.from, q.to, q.timeZone],
  );
  return { from: new Date(r?.f as string), to: new Date(r?.t as string) };
}

/**
 * Filters and grouping of a statement over cells or report_calls: parameters $1 organization,
 * $2 from, $3 to, then the zone when the statement buckets, then the filters'.
 */
function shape(q: ReportQuery, range: { from: Date; to: Date }, orgId: string, at: string) {
  const params: unknown[] = [orgId, range.from, range.to];
  const where = ['org_id = $1', `${at} >= $2`, `${at} < $3`];
  // Only a statement that buckets names the zone (an unused parameter has no type).
  const tz = q.bucket === 'none' ? '' : `$${params.push(q.timeZone)}::text`;
  if (q.campaignId) where.push(`campaign_id = $${params.push(q.campaignId)}`);
  if (q.source) where.push(`source = $${params.push(q.source.trim().toLowerCase())}`);
  const keys = q.groupBy.map((g) => GROUP_COLUMN[g] as string);
  return { params, where, keys, tz };
}

/** Rows keyed by bucket and group keys, so two statements' answers can be matched. */
const rowKey = (r: Row, keys: readonly string[]) =>
  JSON.stringify([
    r.bucket_start === null ? null : new Date(r.bucket_start as string).getTime(),
    ...keys.map((k) => r[k]),
  ]);

async function campaignCodes(store: Store, orgId: string): Promise<Map<string, string>> {
  const rows = await store.query<{ id: string; code: string }>(
    'select id, code from campaigns where org_id = $1',
    [orgId],
  );
  return new Map(rows.map((r) => [r.id, r.code]));
}

function keysOf<G extends string>(r: Row, groupBy: readonly G[], codes: Map<string, string>) {
  const keys: Partial<Record<G, string | null>> = {};
  for (const g of groupBy) {
    const v = r[GROUP_COLUMN[g] as string];
    keys[g] = g === 'campaign' ? (codes.get(String(v)) ?? null) : keyValue(v);
  }
  return keys;
}

async function trafficRows(
  store: Store,
  orgId: string,
  q: TrafficQuery,
  range: { from: Date; to: Date },
  grouped: boolean,
) {
  const sub = {
    ...q,
    groupBy: grouped ? q.groupBy : [],
    bucket: grouped ? q.bucket : 'none',
  } as const;
  const needs: TrafficGroup[] = [...sub.groupBy];
  if (q.campaignId) needs.push('campaign');
  if (q.source) needs.push('source');
  const { params, where, keys, tz } = shape(sub, range, orgId, 'bucket');
  const cond = `${where.join(' and ')} and grain = $${params.push(grainFor(needs))}`;
  const sel = ['bucket', ...TRAFFIC_KEY_COLUMNS, ...TRAFFIC_CELL_METRICS].join(', ');
  const sums = TRAFFIC_CELL_METRICS.map((m) => `sum(${m}::float8) as ${m}`).join(', ');
  const none = sub.bucket === 'none';
  const groupCols = (quarter: string, zone: string) => [
    `${none ? 'null::timestamptz' : bucketOfQuarter(sub.bucket, zone, range, quarter)} as bucket_start`,
    ...keys,
  ];
  // The bucket, then the keys.
  const positions = [0, ...keys].map((_, i) => i + 1).join(', ');
  // Totals of counters are the sum of the grouped rows (trafficReport): only distinct counts
  // need a statement of their own.
  const cells = !grouped
    ? []
    : await store.query<Row>(
        `select ${groupCols('c.bucket', tz).join(', ')}, ${sums}
       from (select ${sel} from report_traffic_rollups where ${cond}
             union all select ${sel} from report_traffic_deltas where ${cond}) c
      group by ${positions} order by ${positions}`,
        params,
      );
  // Distinct callers cannot be summed from cells: counted from the calls' facts, each
  // (bucket, keys, caller) once by hashing (count(distinct) sorts every call).
  const f = shape(sub, range, orgId, 'started_at');
  const callers = await store.query<Row>(
    `select bucket_start, ${[...keys, ''].join(', ')} count(*)::float8 as unique_callers
       from (select distinct ${groupCols('report_quarter(started_at)', f.tz).join(', ')}, caller
               from report_calls
              where ${f.where.join(' and ')}) x
      group by ${positions}`,
    f.params,
  );
  const unique = new Map(callers.map((r) => [rowKey(r, keys), num(r.unique_callers)]));
  return { cells, unique, keys };
}

function trafficRow(
  r: Row,
  unique: number,
  keys: Partial<Record<TrafficGroup, string | null>>,
): TrafficRow {
  const metrics = {} as Record<TrafficMetric, number>;
  for (const m of TRAFFIC_CELL_METRICS) metrics[m] = num(r[m]);
  metrics.unique_callers = unique;
  metrics.calls_repeat = metrics.calls - metrics.calls_first_time;
  return {
    bucketStart:
      r.bucket_start === null || r.bucket_start === undefined
        ? null
        : new Date(r.bucket_start as string),
    keys,
    metrics,
    rates: trafficRates(metrics),
  };
}

const nonZero = (r: Row, metrics: readonly string[]) => metrics.some((m) => num(r[m]) !== 0);

export async function trafficReport(
  store: Store,
  orgId: string,
  q: TrafficQuery,
): Promise<Report<TrafficRow>> {
  const range = await alignRange(store, q);
  const codes = await campaignCodes(store, orgId);
  const grouped = await trafficRows(store, orgId, q, range, true);
  const total = await trafficRows(store, orgId, q, range, false);
  const t: Row = { bucket_start: null };
  for (const m of TRAFFIC_CELL_METRICS) t[m] = grouped.cells.reduce((a, r) => a + num(r[m]), 0);
  const rows = grouped.cells
    .filter((r) => nonZero(r, TRAFFIC_CELL_METRICS))
    .map((r) =>
      trafficRow(r, grouped.unique.get(rowKey(r, grouped.keys)) ?? 0, keysOf(r, q.groupBy, codes)),
    );
  return {
    ...range,
    rows,
    totals: trafficRow({ ...t, bucket_start: null }, total.unique.get(rowKey(t, [])) ?? 0, {}),
  };
}

async function touchRows(
  store: Store,
  orgId: string,
  q: TouchQuery,
  range: { from: Date; to: Date },
  grouped: boolean,
) {
  const groupBy = grouped ? q.groupBy : [];
  const bucket = grouped ? q.bucket : 'none';
  const { params, where, keys, tz } = shape(
    { ...q, groupBy, bucket, source: undefined },
    range,
    orgId,
    'bucket',
  );
  where.push(groupBy.includes('reason') ? "reason <> ''" : "reason = ''");
  const cols = [
    'org_id',
    'bucket',
    'campaign_id',
    'channel',
    'purpose',
    'outcome',
    'state',
    'reason',
    ...TOUCH_METRICS,
  ].join(', ');
  const groupCols = [
    `${bucket === 'none' ? 'null::timestamptz' : bucketOfQuarter(bucket, tz, range, 'c.bucket')} as bucket_start`,
    ...keys,
  ];
  const cond = where.join(' and ');
  return store.query<Row>(
    `select ${groupCols.join(', ')}, ${TOUCH_METRICS.map((m) => `sum(${m}::float8) as ${m}`).join(', ')}
       from (select ${cols} from report_touch_rollups where ${cond}
             union all select ${cols} from report_touch_deltas where ${cond}) c
      group by ${groupCols.map((_, i) => i + 1).join(', ')}
      order by ${groupCols.map((_, i) => i + 1).join(', ')}`,
    params,
  );
}

function touchRow(r: Row, keys: TouchRow['keys']): TouchRow {
  const metrics = {} as TouchRow['metrics'];
  for (const m of TOUCH_METRICS) metrics[m] = num(r[m]);
  const b = r.bucket_start;
  return {
    bucketStart: b === null || b === undefined ? null : new Date(b as string),
    keys,
    metrics,
  };
}

export async function touchReport(
  store: Store,
  orgId: string,
  q: TouchQuery,
): Promise<Report<TouchRow>> {
  const range = await alignRange(store, q);
  const codes = await campaignCodes(store, orgId);
  const grouped = await touchRows(store, orgId, q, range, true);
  const rows = grouped
    .filter((r) => nonZero(r, TOUCH_METRICS))
    .map((r) => touchRow(r, keysOf(r, q.groupBy, codes)));
  // A touch blocked for two reasons is in two reason rows: totals then need their own statement.
  let t: Row | undefined;
  if (q.groupBy.includes('reason')) [t] = await touchRows(store, orgId, q, range, false);
  else {
    t = {};
    for (const m of TOUCH_METRICS) t[m] = grouped.reduce((a, r) => a + num(r[m]), 0);
  }
  return { ...range, rows, totals: touchRow({ ...(t ?? {}), bucket_start: null }, {}) };
}

export async function orgTimeZone(store: Store, orgId: string): Promise<string | null> {
  const [r] = await store.query<{ time_zone: string }>('select time_zone from orgs where id = $1', [
    orgId,
  ]);
  return r?.time_zone ?? null;
}

/** The read model bound to one store, as the domain declares it. */
export function createReportQueries(store: Store): ReportQueries {
  return {
    trafficReport: (orgId, q) => trafficReport(store, orgId, q),
    touchReport: (orgId, q) => touchReport(store, orgId, q),
    cellSessions: (orgId, cell, w) => cellSessions(store, orgId, cell, w),
    cellCalls: (orgId, cell, w) => cellCalls(store, orgId, cell, w),
    cellTouches: (orgId, cell, w) => cellTouches(store, orgId, cell, w),
    orgTimeZone: (orgId) => orgTimeZone(store, orgId),
  };
}
