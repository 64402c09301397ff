import {
  type ReportBucket,
  TOUCH_GROUPS,
  TRAFFIC_GROUPS,
  TRAFFIC_METRICS,
  type TrafficGroup,
  type TrafficMetric,
} from '../../domain/reports/vocabulary.js';

/**
 * Shared pieces of the report statements (reports.ts, report-cells.ts). Group
 * keys are never interpolated from input: only names from the vocabulary's
 * arrays reach the SQL text, through the maps below.
 */

/**
 * The grains of the traffic cells (migration 0022) and the keys each carries; a report reads the
 * first that covers its grouping and filters. No grain 2: see the migration.
 */
export const TRAFFIC_GRAINS: readonly { grain: number; keys: readonly TrafficGroup[] }[] = [
  { grain: 0, keys: ['campaign', 'source'] },
  {
    grain: 1,
    keys: ['campaign', 'source', 'medium', 'utm_campaign', 'landing_path', 'attribution'],
  },
  { grain: 3, keys: TRAFFIC_GROUPS },
];

export function grainFor(needs: readonly TrafficGroup[]): number {
  const g = TRAFFIC_GRAINS.find((x) => needs.every((k) => x.keys.includes(k)));
  return g ? g.grain : 3;
}

/** The column of a group key in the cells and in report_calls: its name, but a campaign's or buyer's id. */
const columnOf = (group: string): string =>
  group === 'campaign' ? 'campaign_id' : group === 'buyer' ? 'buyer_id' : group;
export const GROUP_COLUMN: Record<string, string> = Object.fromEntries(
  [...TRAFFIC_GROUPS, ...TOUCH_GROUPS].map((g) => [g, columnOf(g)]),
);

/**
 * A bucket's start in the zone, for an instant column (`$tz` the zone's parameter). `hour`
 * truncates keeping the instant's offset, so the two 01:00 hours of a DST fall-back are two
 * buckets; days and longer start at the local midnight.
 */
export function bucketExpr(bucket: ReportBucket, column: string, tz: string): string {
  if (bucket === 'none') return 'null::timestamptz';
  return `date_trunc('${bucket}', ${column}, ${tz})`;
}

/**
 * The bucket of `quarter` (a quarter-hour start within [$2, $3), an aligned range), read from
 * an array holding the bucket of each quarter of the range, computed once per statement: a
 * zone conversion per cell or call (date_trunc in a zone, about a microsecond a row) would be
 * a third of a 30-day report. A zone's offset is a whole number of quarter hours, so every instant
 * of a quarter falls in the bucket of its start. An array, not a join: the planner cannot
 * estimate a join on computed instants, and a join estimated 40 times too large is sorted on
 * disk instead of hashed.
 */
export function bucketOfQuarter(
  bucket: ReportBucket,
  tz: string,
  range: { from: Date; to: Date },
  quarter: string,
): string {
  const quarters = Math.max(1, Math.round((range.to.getTime() - range.from.getTime()) / 900_000));
  const starts = `(select array_agg(${bucketExpr(bucket, 'x.q', tz)} order by x.i)
     from (select i, $2::timestamptz + i * interval '15 minutes' as q
             from generate_series(0, ${quarters - 1}) i) x)`;
  return `${starts}[(date_part('epoch', ${quarter} - $2::timestamptz) / 900)::int + 1]`;
}

/** Day, week and month buckets are unions of local days: in the days' zone they read the days. */
export const readsDays = (bucket: ReportBucket): boolean =>
  bucket === 'day' || bucket === 'week' || bucket === 'month';

/** The local dates of an aligned range [$2, $3) in the zone: `day >= first and day < end`. */
export const dayRange = (tz: string) => ({
  first: `($2::timestamptz at time zone ${tz})::date`,
  end: `($3::timestamptz at time zone ${tz})::date`,
});

/**
 * The bucket of a local date `day` of the range (migration 0027), from an array computed once
 * per statement like bucketOfQuarter's: the bucket of the day's noon, an instant every local
 * day has (a DST change never falls at noon), so each day has the bucket its quarter hours have.
 */
export function bucketOfDay(bucket: ReportBucket, tz: string, day: string): string {
  const { first, end } = dayRange(tz);
  const starts = `(select array_agg(${bucketExpr(bucket, `((${first} + i) + time '12:00') at time zone ${tz}`, tz)} order by i)
     from generate_series(0, ${end} - ${first} - 1) i)`;
  return `${starts}[(${day} - ${first}) + 1]`;
}

/**
 * The buckets of an aligned range as rows (s, e), one per bucket start a quarter hour of the
 * range has: what a statement reads the calls of, bucket by bucket.
 */
export function bucketRanges(
  bucket: ReportBucket,
  tz: string,
  range: { from: Date; to: Date },
): string {
  if (bucket === 'none') return `select $2::timestamptz as s, $3::timestamptz as e`;
  const quarters = Math.max(1, Math.round((range.to.getTime() - range.from.getTime()) / 900_000));
  return `select s, coalesce(lead(s) over (order by s), $3::timestamptz) as e
     from (select distinct ${bucketExpr(bucket, `$2::timestamptz + i * interval '15 minutes'`, tz)} as s
             from generate_series(0, ${quarters - 1}) i) x`;
}

/**
 * The report_calls column holding the start of the same caller's previous call with the same
 * values of `columns` (migration 0027), when one is kept for that set.
 */
export function previousCallColumn(columns: readonly string[]): string | undefined {
  const set = [...new Set(columns)].sort().join(',');
  return (
    {
      '': 'prev_org',
      campaign_id: 'prev_campaign',
      source: 'prev_source',
      'campaign_id,source': 'prev_campaign_source',
    } as Record<string, string>
  )[set];
}

/** The instant one bucket after `start` (a bucket start) in the zone. */
export function bucketEndExpr(bucket: ReportBucket, start: string, tz: string): string {
  if (bucket === 'hour') return `(${start} + interval '1 hour')`;
  const step = bucket === 'week' ? '7 days' : bucket === 'month' ? '1 month' : '1 day';
  return `((((${start}) at time zone ${tz}) + interval '${step}') at time zone ${tz})`;
}

/** Keys stored as '' where they do not apply are null to readers. */
export const keyValue = (value: unknown): string | null =>
  value === null || value === undefined || value === '' ? null : String(value);

export const num = (value: unknown): number =>
  value === null || value === undefined ? 0 : Number(value);

/** The counters stored in traffic cells (migration 0022): all but the ones derived on reading. */
export const TRAFFIC_CELL_METRICS: readonly TrafficMetric[] = TRAFFIC_METRICS.filter(
  (m) => m !== 'unique_callers' && m !== 'calls_repeat',
);

/**
 * Every counter a traffic cell stores: the metrics, and revenue in cents (migration 0065), which a
 * row shows as a decimal string (TRAFFIC_MONEY).
 */
export const TRAFFIC_CELL_COUNTERS: readonly string[] = [...TRAFFIC_CELL_METRICS, 'revenue_cents'];

/** A count of cents as a decimal string with two places: 1250 → "12.50", -5 → "-0.05". */
export function centsText(cents: number): string {
  const c = Math.round(Math.abs(cents));
  const text = `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
  return cents < 0 && c > 0 ? `-${text}` : text;
}
