import type { ReportQueries } from '../../domain/reports/ports.js';
import { groupsListed } from '../../domain/reports/request.js';
import type {
  Report,
  ReportQuery,
  TouchQuery,
  TouchRow,
  TrafficQuery,
  TrafficRow,
} from '../../domain/reports/types.js';
import {
  type ReportBucket,
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
  bucketOfDay,
  bucketOfQuarter,
  bucketRanges,
  centsText,
  dayRange,
  GROUP_COLUMN,
  grainFor,
  keyValue,
  num,
  previousCallColumn,
  readsDays,
  TRAFFIC_CELL_COUNTERS,
  TRAFFIC_CELL_METRICS,
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
function shape(
  q: ReportQuery,
  range: { from: Date; to: Date },
  orgId: string,
  at: string,
  zone = q.bucket !== 'none',
) {
  const params: unknown[] = [orgId, range.from, range.to];
  const where = ['org_id = $1', `${at} >= $2`, `${at} < $3`];
  // Only a statement that names the zone has it (an unused parameter has no type).
  const tz = zone ? `$${params.push(q.timeZone)}::text` : '';
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

/**
 * The cells of a statement, bucketed: the local days when the bucket is a union of days (a
 * range of whole local days for `none`) and the grain has days (0 and 1), else the quarter
 * hours; the deltas not folded yet either way. Whether the days are kept in the report's zone
 * is read in the same statement (one snapshot), so a zone changed since the last fold falls
 * back to the quarter hours, exact. With days, `s.tz` names the zone even for `none`. `grain`:
 * the traffic cells' (TRAFFIC_GRAINS); touch cells have none.
 */
function cellsFrom(
  table: 'traffic' | 'touch',
  bucket: ReportBucket,
  range: { from: Date; to: Date },
  s: { where: string[]; keys: string[]; tz: string },
  metrics: readonly string[],
  grain?: number,
): string {
  const none = bucket === 'none';
  const cols = (b: string) => [`${b} as bucket_start`, ...s.keys, ...metrics].join(', ');
  const quarter = none ? 'null::timestamptz' : bucketOfQuarter(bucket, s.tz, range, 'bucket');
  // Traffic cells of the grain; deltas hold every key (grain 3) and are summed by the keys.
  const of = (g: number | undefined) => (g === undefined ? '' : ` and grain = ${g}`);
  const quarters = (t: string, g: number | undefined, extra = '') =>
    `select ${cols(quarter)} from report_${table}_${t} where ${s.where.join(' and ')}${of(g)}${extra}`;
  const deltas = quarters('deltas', grain === undefined ? undefined : 3);
  const withDays = grain === undefined || grain <= 1;
  if (!withDays || !(none || readsDays(bucket))) {
    return `${quarters('rollups', grain)} union all ${deltas}`;
  }
  const dayStart = (p: string) =>
    `${p}::timestamptz = date_trunc('day', ${p}::timestamptz, ${s.tz})`;
  const useDays = `(exists (select 1 from report_day_zones z where z.org_id = $1 and z.time_zone = ${s.tz})${
    none ? ` and ${dayStart('$2')} and ${dayStart('$3')}` : ''
  })`;
  const { first, end } = dayRange(s.tz);
  // The shape's first three conditions are the organization and the range; the rest filter.
  const days = [s.where[0], `day >= ${first}`, `day < ${end}`, ...s.where.slice(3), useDays];
  const day = none ? 'null::timestamptz' : bucketOfDay(bucket, s.tz, 'day');
  return `select ${cols(day)} from report_${table}_days where ${days.join(' and ')}${of(grain)}
    union all ${quarters('rollups', grain, ` and not ${useDays}`)} union all ${deltas}`;
}

/**
 * Repeats per bucket and keys: calls whose caller made an earlier call in the same bucket with the
 * same keys. A bucket's unique callers are its calls less its repeats (a caller counts once, by
 * the first call of the bucket), so only repeats are read. With a previous-call column for the
 * keys and filters (report_calls.prev_*, migration 0027) a repeat is a call whose previous one
 * started in the bucket, read through the column's partial index. Other keys (medium, landing
 * path, …) start from the calls whose previous call in the organization (prev_org) started in
 * the bucket, and keep those that have an earlier call of the bucket by the same caller with the
 * same `columns` (report_calls_org_caller_idx): a few index probes per repeat, not a distinct
 * count over every call of the range.
 */
function bucketRepeats(
  store: Store,
  orgId: string,
  q: TrafficQuery,
  range: { from: Date; to: Date },
  columns: readonly string[],
): Promise<Row[]> {
  const f = shape(q, range, orgId, 'started_at');
  const previous = previousCallColumn(columns);
  const prev = previous ?? 'prev_org';
  const where = [
    f.where[0],
    `${prev} >= b.s`,
    `${prev} < b.e`,
    'started_at < b.e',
    ...f.where.slice(3),
  ];
  if (!previous) {
    const same = [...new Set(columns)].map((k) => ` and e.${k} = c.${k}`).join('');
    where.push(`exists (select 1 from report_calls e
       where e.org_id = c.org_id and e.caller = c.caller and e.started_at >= b.s
         and (e.started_at, e.call_id) < (c.started_at, c.call_id)${same})`);
  }
  const groupBy = f.keys.length ? `group by ${f.keys.join(', ')}` : '';
  return store.query<Row>(
    `select ${q.bucket === 'none' ? 'null::timestamptz' : 'b.s'} as bucket_start, ${f.keys.map((k) => `x.${k}, `).join('')} x.repeats
       from (${bucketRanges(q.bucket, f.tz, range)}) b
      cross join lateral (
        select ${[...f.keys, ''].join(', ')} count(*)::float8 as repeats from report_calls c
         where ${where.join(' and ')} ${groupBy}) x`,
    f.params,
  );
}

/** The calls of the range whose previous call (with the filters' keys) started in the range. */
async function rangeRepeats(
  store: Store,
  orgId: string,
  q: TrafficQuery,
  range: { from: Date; to: Date },
  previous: string,
): Promise<number> {
  const r = shape({ ...q, bucket: 'none', groupBy: [] }, range, orgId, 'started_at');
  const where = [r.where[0], `${previous} >= $2`, `${previous} < $3`, 'started_at < $3'];
  const [row] = await store.query<{ repeats: number }>(
    `select count(*)::float8 as repeats from report_calls
      where ${[...where, ...r.where.slice(3)].join(' and ')}`,
    r.params,
  );
  return num(row?.repeats);
}

/**
 * The cells summed by bucket and keys. With keys, the groups (key combinations) are ranked by
 * their sessions, then calls, over the range, then by the keys; past the first `listed`, a
 * bucket's groups are summed into one row with null keys and `other` true. The database folds,
 * so an answer never carries more than buckets × (listed + 1) rows whatever the visitors sent
 * (a million landing paths are a million cells, not a million rows here). `groups` is how many
 * groups the range has. Deltas not folded yet leave counters null (a DNI batch's call
 * counters), so a group's sums are null when none of its cells counted: they rank as 0, not
 * first (a descending order puts nulls first). A bucket's cells of a group can net to nothing
 * (a call moved to its buyer's row leaves +1 and −1 under no buyer): such a row is not counted,
 * and a group with no other row is no group, neither ranked nor folded.
 */
function foldedCells(s: ReturnType<typeof shape>, cells: string, listed: number) {
  const sums = TRAFFIC_CELL_COUNTERS.map((m) => `sum(${m}::float8) as ${m}`).join(', ');
  // The bucket, then the keys.
  const positions = [0, ...s.keys].map((_, i) => i + 1).join(', ');
  if (s.keys.length === 0) {
    return `select bucket_start, ${sums}, false as other, 1 as groups
       from (${cells}) c group by 1 order by 1`;
  }
  const keys = s.keys.join(', ');
  const n = `$${s.params.push(listed)}::int`;
  const kept = s.keys.map((k) => `case when g_rank <= ${n} then ${k} end as ${k}`).join(', ');
  const folded = TRAFFIC_CELL_COUNTERS.map((m) => `sum(${m}) as ${m}`).join(', ');
  // A null sum (no cell counted) is not true here either.
  const counted = TRAFFIC_CELL_COUNTERS.map((m) => `sum(${m}) <> 0`).join(' or ');
  return `with c as (
      select bucket_start, ${keys}, ${sums} from (${cells}) c group by ${positions}
      having ${counted}),
    ranked as (
      select c.*, dense_rank() over (order by g_sessions desc, g_calls desc, ${keys}) as g_rank
        from (select c.*, coalesce(sum(sessions) over g, 0) as g_sessions,
                     coalesce(sum(calls) over g, 0) as g_calls
                from c window g as (partition by ${keys})) c)
    select bucket_start, ${kept}, g_rank > ${n} as other, ${folded},
           max(max(g_rank)) over () as groups
      from ranked group by ${positions}, ${s.keys.length + 2}
     order by 1, ${s.keys.length + 2}, ${s.keys.map((_, i) => i + 2).join(', ')}`;
}

async function trafficRows(
  store: Store,
  orgId: string,
  q: TrafficQuery,
  range: { from: Date; to: Date },
) {
  const needs: TrafficGroup[] = [...q.groupBy];
  if (q.campaignId) needs.push('campaign');
  if (q.source) needs.push('source');
  const grain = grainFor(needs);
  const s = shape(q, range, orgId, 'bucket', q.bucket !== 'none' || grain <= 1);
  const listed = groupsListed(q.bucket, range.from, range.to, q.groups);
  const cells = cellsFrom('traffic', q.bucket, range, s, TRAFFIC_CELL_COUNTERS, grain);
  const cellsRead = store.query<Row>(foldedCells(s, cells, listed), s.params);
  // Distinct callers cannot be summed from cells: a row's unique callers are its calls less its
  // repeats (bucketRepeats), the range's its calls less the calls whose previous call (with the
  // filters' keys) started in the range (rangeRepeats). The statements run at once (several
  // connections and cores; PGlite runs them one after the other).
  const filters = [q.campaignId ? 'campaign_id' : '', q.source ? 'source' : ''].filter(Boolean);
  const [cells_, repeatsInRange, repeats] = await Promise.all([
    cellsRead,
    rangeRepeats(store, orgId, q, range, previousCallColumn(filters) as string),
    bucketRepeats(store, orgId, q, range, [...s.keys, ...filters]),
  ]);
  // A folded row's repeats are those of the groups it holds: every group not listed.
  const groupOf = (r: Row) => JSON.stringify(s.keys.map((k) => r[k]));
  const listedGroups = new Set(cells_.filter((r) => !r.other).map(groupOf));
  const counted = new Map<string, number>();
  for (const r of repeats) {
    const k = listedGroups.has(groupOf(r)) ? rowKey(r, s.keys) : otherKey(r);
    counted.set(k, (counted.get(k) ?? 0) + num(r.repeats));
  }
  const unique = new Map(
    cells_.map((r) => {
      const k = r.other ? otherKey(r) : rowKey(r, s.keys);
      return [k, num(r.calls) - (counted.get(k) ?? 0)];
    }),
  );
  const uniqueInRange = cells_.reduce((n, r) => n + num(r.calls), 0) - repeatsInRange;
  const groups = num(cells_[0]?.groups);
  return {
    cells: cells_,
    unique,
    uniqueInRange,
    keys: s.keys,
    groups: { listed, folded: Math.max(0, groups - listed) },
  };
}

/** The key of a bucket's `other` row in the unique-caller counts. */
const otherKey = (r: Row) =>
  `other ${r.bucket_start === null ? null : new Date(r.bucket_start as string).getTime()}`;

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
    money: { revenue: centsText(num(r.revenue_cents)) },
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
  const grouped = await trafficRows(store, orgId, q, range);
  const t: Row = { bucket_start: null };
  for (const m of TRAFFIC_CELL_COUNTERS) t[m] = grouped.cells.reduce((a, r) => a + num(r[m]), 0);
  const rows = grouped.cells
    .filter((r) => nonZero(r, TRAFFIC_CELL_COUNTERS))
    .map((r) => {
      const key = r.other ? otherKey(r) : rowKey(r, grouped.keys);
      const row = trafficRow(r, grouped.unique.get(key) ?? 0, keysOf(r, q.groupBy, codes));
      return r.other ? { ...row, other: true } : row;
    });
  return {
    ...range,
    rows,
    totals: trafficRow(t, grouped.uniqueInRange, {}),
    groups: grouped.groups,
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
  const s = shape({ ...q, groupBy, bucket, source: undefined }, range, orgId, 'bucket', true);
  s.where.push(groupBy.includes('reason') ? "reason <> ''" : "reason = ''");
  const positions = [0, ...s.keys].map((_, i) => i + 1).join(', ');
  return store.query<Row>(
    `select bucket_start, ${[...s.keys, ...TOUCH_METRICS.map((m) => `sum(${m}::float8) as ${m}`)].join(', ')}
       from (${cellsFrom('touch', bucket, range, s, TOUCH_METRICS)}) c
      group by ${positions} order by ${positions}`,
    s.params,
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
