import type { DrillWindow } from '../../domain/reports/ports.js';
import type {
  DrillCall,
  DrillSession,
  DrillTouch,
  ReportCell,
} from '../../domain/reports/types.js';
import type { TouchGroup, TrafficGroup } from '../../domain/reports/vocabulary.js';
import type { Store } from '../db.js';
import { bucketEndExpr, keyValue } from './report-sql.js';

type Row = Record<string, unknown>;

/**
 * The raw rows behind a report cell: the cell's bucket (or the report's range)
 * and its keys, with the report's filters, read with the same functions the
 * counters use (report_source, report_path), newest first, by id. Sessions
 * pruned by retention are no longer listed though still counted
 * (docs/reporting.md, "Retention").
 */
function cellWhere(
  cell: ReportCell<string>,
  orgId: string,
  at: string,
  column: (key: string) => string | null,
  w: DrillWindow,
) {
  const q = cell.query;
  const params: unknown[] = [orgId, q.from, q.to];
  const where = ['x.org_id = $1', `${at} >= $2`, `${at} < $3`];
  if (cell.bucketStart && q.bucket !== 'none') {
    const s = `$${params.push(cell.bucketStart)}::timestamptz`;
    const tz = `$${params.push(q.timeZone)}::text`;
    where.push(`${at} >= ${s}`, `${at} < ${bucketEndExpr(q.bucket, s, tz)}`);
  }
  const keys: Record<string, string | null | undefined> = { ...cell.keys };
  if (q.campaignId) where.push(`x.campaign_id = $${params.push(q.campaignId)}`);
  if (q.source) keys.source ??= q.source.trim().toLowerCase();
  for (const [k, v] of Object.entries(keys)) {
    if (v === undefined) continue;
    if (k === 'campaign') {
      where.push(
        `x.campaign_id = (select id from campaigns where org_id = $1 and code = $${params.push(v)})`,
      );
      continue;
    }
    const col = column(k);
    if (col === null) {
      // A key the rows do not have (a session's attribution): only its null matches.
      if (v !== null) where.push('false');
      continue;
    }
    where.push(`coalesce(${col}, '') = $${params.push(v ?? '')}`);
  }
  if (w.after) where.push(`x.id < $${params.push(w.after)}`);
  const limit = `$${params.push(w.limit)}`;
  return { params, where: where.join(' and '), limit };
}

const SESSION_KEYS: Record<string, string | null> = {
  source: 'report_source(x.utm_source, x.gclid, x.gbraid, x.wbraid, x.fbclid, x.fbc, x.msclkid)',
  medium: 'x.utm_medium',
  utm_campaign: 'x.utm_campaign',
  landing_path: 'report_path(x.landing_url)',
  attribution: null,
  tracking_number: 'x.tracking_number',
};

export async function cellSessions(
  store: Store,
  orgId: string,
  cell: ReportCell<TrafficGroup>,
  w: DrillWindow,
): Promise<DrillSession[]> {
  const c = cellWhere(cell, orgId, 'x.created_at', (k) => SESSION_KEYS[k] ?? null, w);
  const rows = await store.query<Row>(
    `select x.id, k.code, x.created_at, x.tracking_number, x.kind, x.ambiguous, x.hits,
            ${SESSION_KEYS.source} as source, x.utm_medium, x.utm_campaign,
            report_path(x.landing_url) as landing_path
       from dni_sessions x join campaigns k on k.id = x.campaign_id
      where ${c.where} order by x.id desc limit ${c.limit}`,
    c.params,
  );
  return rows.map((r) => ({
    id: String(r.id),
    campaignCode: String(r.code),
    createdAt: new Date(r.created_at as string),
    trackingNumber: String(r.tracking_number),
    kind: String(r.kind),
    ambiguous: Boolean(r.ambiguous),
    hits: Number(r.hits),
    source: String(r.source),
    medium: keyValue(r.utm_medium),
    utmCampaign: keyValue(r.utm_campaign),
    landingPath: keyValue(r.landing_path),
  }));
}

export async function cellCalls(
  store: Store,
  orgId: string,
  cell: ReportCell<TrafficGroup>,
  w: DrillWindow,
): Promise<DrillCall[]> {
  const c = cellWhere(cell, orgId, 'f.started_at', (k) => `f.${k}`, w);
  const rows = await store.query<Row>(
    `select x.id, k.code, x.started_at, x.from_number, x.tracking_number, x.attribution,
            x.dni_session_id, f.source, f.first_time, x.status, x.duration_seconds, x.disposition
       from report_calls f join calls x on x.id = f.call_id join campaigns k on k.id = x.campaign_id
      where ${c.where} order by x.id desc limit ${c.limit}`,
    c.params,
  );
  return rows.map((r) => ({
    id: String(r.id),
    campaignCode: String(r.code),
    startedAt: new Date(r.started_at as string),
    fromNumber: String(r.from_number),
    trackingNumber: String(r.tracking_number),
    attribution: String(r.attribution),
    dniSessionId: keyValue(r.dni_session_id),
    source: String(r.source),
    firstTime: Boolean(r.first_time),
    status: keyValue(r.status),
    durationSeconds: r.duration_seconds === null ? null : Number(r.duration_seconds),
    disposition: keyValue(r.disposition),
  }));
}

const TOUCH_OUTCOME = 'report_touch_outcome(x.placed, x.dispatch_status)';
const TOUCH_KEYS: Record<string, string> = {
  channel: 'x.channel',
  purpose: "x.checks->'consent'->>'purpose'",
  outcome: TOUCH_OUTCOME,
  state: "coalesce(x.checks->'quiet_hours'->>'state', 'unknown')",
  reason: `(case when jsonb_array_length(x.reasons) = 0 then '["none"]'::jsonb
    else (select jsonb_agg(e->>'code') from jsonb_array_elements(x.reasons) e) end)`,
};

export async function cellTouches(
  store: Store,
  orgId: string,
  cell: ReportCell<TouchGroup>,
  w: DrillWindow,
): Promise<DrillTouch[]> {
  const { reason, ...keys } = cell.keys;
  const c = cellWhere({ ...cell, keys }, orgId, 'x.decided_at', (k) => TOUCH_KEYS[k] ?? null, w);
  let where = c.where;
  if (reason !== undefined && reason !== null) {
    where += ` and ${TOUCH_KEYS.reason} ? $${c.params.push(reason)}`;
  }
  const rows = await store.query<Row>(
    `select x.id, k.code, x.decided_at, x.to_e164, x.channel, ${TOUCH_KEYS.purpose} as purpose,
            ${TOUCH_OUTCOME} as outcome, x.reasons, ${TOUCH_KEYS.state} as state
       from outbound_touches x join campaigns k on k.id = x.campaign_id
      where ${where} order by x.id desc limit ${c.limit}`,
    c.params,
  );
  return rows.map((r) => ({
    id: String(r.id),
    campaignCode: String(r.code),
    decidedAt: new Date(r.decided_at as string),
    toE164: String(r.to_e164),
    channel: String(r.channel),
    purpose: keyValue(r.purpose),
    outcome: String(r.outcome),
    reasons: (r.reasons as { code: string }[]).map((x) => x.code),
    state: String(r.state),
  }));
}
