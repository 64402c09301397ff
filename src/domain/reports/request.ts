import { errors } from '../../errors.js';
import type { CampaignRepository } from '../admin/ports.js';
import type { Executor } from '../ports.js';
import type { ReportQueries } from './ports.js';
import type { ReportQuery } from './types.js';
import { type ReportBucket, type ReportKind, TOUCH_GROUPS, TRAFFIC_GROUPS } from './vocabulary.js';

const DAY_MS = 86_400_000;

/**
 * The longest range each bucket answers (docs/reporting.md, "Retention"): an
 * answer stays a readable size and its cost bounded. Checked before anything
 * is read, so a refused query costs nothing.
 */
export const HORIZON_DAYS: Record<ReportBucket, number> = {
  hour: 31,
  day: 400,
  week: 3660,
  month: 3660,
  none: 3660,
};

export const DEFAULT_RANGE_DAYS = 7;

/**
 * The most rows a traffic answer lists (docs/reporting.md, "Many groups"): group keys such as
 * landing paths come from visitors and can all differ, so an answer lists the largest groups and
 * folds the rest into one `other` row per bucket. The groups listed are at most
 * MAX_REPORT_GROUPS, and fewer with many buckets, so that buckets × (groups + 1) stays within
 * MAX_REPORT_ROWS.
 */
export const MAX_REPORT_ROWS = 10_000;
export const MAX_REPORT_GROUPS = 1_000;

/** The shortest each bucket can be (a local day is 23 hours on a DST spring-forward). */
const SHORTEST_BUCKET_MS: Record<Exclude<ReportBucket, 'none'>, number> = {
  hour: 3_600_000,
  day: 23 * 3_600_000,
  week: 7 * DAY_MS - 3_600_000,
  month: 28 * DAY_MS - 3_600_000,
};

/**
 * How many groups an answer over [from, to) lists before it folds the rest (at least one):
 * `asked` (the query's `groups`) when the bound allows it.
 */
export function groupsListed(bucket: ReportBucket, from: Date, to: Date, asked?: number): number {
  const ms = to.getTime() - from.getTime();
  // One more than the range holds whole: a range rarely starts on a bucket's start.
  const buckets = bucket === 'none' ? 1 : Math.ceil(ms / SHORTEST_BUCKET_MS[bucket]) + 1;
  const bound = Math.max(1, Math.min(MAX_REPORT_GROUPS, Math.floor(MAX_REPORT_ROWS / buckets) - 1));
  return Math.min(bound, asked ?? bound);
}

/** The query string of a report, already checked for shape by its schema. */
export interface ReportParams {
  from?: string | undefined;
  to?: string | undefined;
  bucket: ReportBucket;
  group_by?: string | undefined;
  campaign?: string | undefined;
  source?: string | undefined;
  time_zone?: string | undefined;
  /** Traffic: the most groups to list (the bound still applies). */
  groups?: number | undefined;
}

export const groupsOf = (kind: ReportKind): readonly string[] =>
  kind === 'traffic' ? TRAFFIC_GROUPS : TOUCH_GROUPS;

/** The group keys asked for, in order, without repeats; 422 naming every unknown one. */
export function parseGroupBy(kind: ReportKind, raw: string | undefined): string[] {
  const allowed = groupsOf(kind);
  const asked = (raw ?? '')
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g !== '');
  const unknown = asked.filter((g) => !allowed.includes(g));
  if (unknown.length > 0) {
    throw errors.field(
      ['query', 'group_by'],
      `unknown grouping ${unknown.map((u) => `'${u}'`).join(', ')}; expected a comma list of ${allowed.join(', ')}`,
      raw,
    );
  }
  return [...new Set(asked)];
}

/**
 * A report request made whole: 422s first (grouping, range, horizon), then the
 * organization (404) and the campaign filter (404 like an unknown one when it
 * is another organization's).
 */
export async function resolveReport(
  repos: Pick<ReportQueries, 'orgTimeZone'> &
    Pick<CampaignRepository, 'findCampaign'> & { readonly db: Executor },
  orgId: string,
  kind: ReportKind,
  p: ReportParams,
  now: Date,
): Promise<ReportQuery> {
  const groupBy = parseGroupBy(kind, p.group_by);
  const to = p.to
    ? new Date(p.to)
    : p.from
      ? new Date(Date.parse(p.from) + DEFAULT_RANGE_DAYS * DAY_MS)
      : now;
  const from = p.from ? new Date(p.from) : new Date(to.getTime() - DEFAULT_RANGE_DAYS * DAY_MS);
  if (from.getTime() >= to.getTime()) {
    throw errors.field(['query', 'from'], 'must be before to', p.from ?? from.toISOString());
  }
  const horizon = HORIZON_DAYS[p.bucket];
  if (to.getTime() - from.getTime() > horizon * DAY_MS) {
    throw errors.field(
      ['query', 'to'],
      `a range of bucket ${p.bucket} may cover at most ${horizon} days`,
      p.to ?? to.toISOString(),
    );
  }
  const zone = await repos.orgTimeZone(orgId);
  if (zone === null) throw errors.orgNotFound();
  let campaignId: string | undefined;
  if (p.campaign !== undefined) {
    const c = await repos.findCampaign(repos.db, orgId, p.campaign);
    if (!c) throw errors.campaignNotFound();
    campaignId = c.id;
  }
  return {
    kind,
    from,
    to,
    bucket: p.bucket,
    groupBy,
    timeZone: p.time_zone ?? zone,
    campaignId,
    source: p.source,
    groups: p.groups,
  };
}
