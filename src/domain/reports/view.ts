import type { Readable } from 'node:stream';
import { offsetAt } from '../compliance/tz.js';
import { type CsvValue, csvStream } from '../text/csv.js';
import type { Report, ReportQuery, TouchRow, TrafficRow } from './types.js';
import { TOUCH_METRICS, TRAFFIC_METRICS, TRAFFIC_MONEY, TRAFFIC_RATES } from './vocabulary.js';

/** `2026-03-10T00:00:00-04:00`: the instant in the zone, with its offset (contract §8). */
export function isoInZone(at: Date, zone: string): string {
  const ms = at.getTime();
  const off = offsetAt(zone, ms);
  const wall = new Date(ms + off).toISOString().slice(0, 19);
  if (off === 0) return `${wall}Z`;
  const a = Math.abs(off) / 60_000;
  const hh = String(Math.floor(a / 60)).padStart(2, '0');
  const mm = String(a % 60).padStart(2, '0');
  return `${wall}${off < 0 ? '-' : '+'}${hh}:${mm}`;
}

type Row = TrafficRow | TouchRow;
type Json = Record<string, string | number | boolean | null>;

function rowJson(r: Row, q: ReportQuery, withBucket: boolean): Json {
  const out: Json = {};
  if (withBucket && q.bucket !== 'none' && r.bucketStart)
    out.bucket_start = isoInZone(r.bucketStart, q.timeZone);
  for (const g of q.groupBy) out[g] = (r.keys as Record<string, string | null>)[g] ?? null;
  if ('other' in r && r.other) out.other = true;
  Object.assign(out, r.metrics);
  if ('money' in r) Object.assign(out, r.money);
  if ('rates' in r) Object.assign(out, r.rates);
  return out;
}

/** The JSON answer of a report (contract §8). */
export function reportJson(orgId: string, q: ReportQuery, report: Report<Row>) {
  return {
    org_id: orgId,
    time_zone: q.timeZone,
    from: isoInZone(report.from, q.timeZone),
    to: isoInZone(report.to, q.timeZone),
    bucket: q.bucket,
    group_by: [...q.groupBy],
    ...(report.groups
      ? { groups_listed: report.groups.listed, groups_folded: report.groups.folded }
      : {}),
    rows: report.rows.map((r) => rowJson(r, q, true)),
    totals: rowJson(report.totals, q, false),
  };
}

/**
 * The CSV answer: a header row, then the rows, streamed through the service's CSV writer (it
 * guards cells a spreadsheet would run: UTM values come from anyone's landing URL). Totals are
 * not a row (they are in the JSON). A traffic file ends with an `other` column: `true` on a
 * bucket's row of folded groups.
 */
export function reportCsv(query: ReportQuery, report: Report<Row>): Readable {
  const metrics: string[] =
    query.kind === 'traffic'
      ? [...TRAFFIC_METRICS, ...TRAFFIC_MONEY, ...TRAFFIC_RATES]
      : [...TOUCH_METRICS];
  const head = [...(query.bucket === 'none' ? [] : ['bucket_start']), ...query.groupBy, ...metrics];
  const traffic = query.kind === 'traffic';
  function* lines(): Generator<CsvValue[]> {
    yield traffic ? [...head, 'other'] : head;
    for (const r of report.rows) {
      const j = rowJson(r, query, true);
      const cells: CsvValue[] = head.map((h) => j[h] ?? null);
      yield traffic ? [...cells, j.other === true] : cells;
    }
  }
  return csvStream(lines());
}
