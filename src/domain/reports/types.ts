import type {
  ReportBucket,
  ReportKind,
  TouchGroup,
  TouchMetric,
  TrafficGroup,
  TrafficMetric,
  TrafficMoney,
  TrafficRate,
} from './vocabulary.js';

/** One report asked for, already validated (the organization's zone resolved). */
export interface ReportQuery<G extends string = string> {
  kind: ReportKind;
  /** Half-open [from, to): instants. */
  from: Date;
  to: Date;
  bucket: ReportBucket;
  /** Group keys in the order asked for (no repeats). */
  groupBy: readonly G[];
  /** IANA name: bucket starts are local midnights / hours / Mondays / first days in it. */
  timeZone: string;
  /** Filters: the campaign's id (resolved from its code in the organization) and a source. */
  campaignId?: string | undefined;
  source?: string | undefined;
  /** Traffic: the most groups to list before folding the rest (request.ts, groupsListed). */
  groups?: number | undefined;
}

export type TrafficQuery = ReportQuery<TrafficGroup> & { kind: 'traffic' };
export type TouchQuery = ReportQuery<TouchGroup> & { kind: 'touches' };

/**
 * A group key's value. Campaign keys are codes. A key that does not apply to
 * the row's facts is null (a session has no attribution rule).
 */
export type GroupKeys<G extends string> = Partial<Record<G, string | null>>;

export interface ReportRow<G extends string, M extends string> {
  /** Null when bucket is `none`. */
  bucketStart: Date | null;
  keys: GroupKeys<G>;
  metrics: Record<M, number>;
}

export type TrafficRow = ReportRow<TrafficGroup, TrafficMetric> & {
  rates: Record<TrafficRate, number | null>;
  money: Record<TrafficMoney, string>;
  /** The bucket's groups past the ones listed, summed (keys all null). */
  other?: boolean;
};
export type TouchRow = ReportRow<TouchGroup, TouchMetric>;

export interface Report<R> {
  /** The range counted: the one asked for, widened to whole buckets in the zone. */
  from: Date;
  to: Date;
  rows: R[];
  /** The whole range in one row (distinct counts are distinct over the range, not summed). */
  totals: R;
  /** Traffic: the most groups listed, and how many more were folded into `other` rows. */
  groups?: { listed: number; folded: number };
}

/** A cell of a report: its bucket (null: the whole range) and its group keys. */
export interface ReportCell<G extends string> {
  query: ReportQuery<G>;
  bucketStart: Date | null;
  keys: GroupKeys<G>;
}

export const DRILL_ROWS = ['sessions', 'calls', 'touches'] as const;
export type DrillRows = (typeof DRILL_ROWS)[number];

export interface DrillSession {
  id: string;
  campaignCode: string;
  createdAt: Date;
  trackingNumber: string;
  kind: string;
  ambiguous: boolean;
  hits: number;
  source: string;
  medium: string | null;
  utmCampaign: string | null;
  landingPath: string | null;
}

export interface DrillCall {
  id: string;
  campaignCode: string;
  startedAt: Date;
  fromNumber: string;
  trackingNumber: string;
  attribution: string;
  dniSessionId: string | null;
  source: string;
  firstTime: boolean;
  status: string | null;
  durationSeconds: number | null;
  disposition: string | null;
}

export interface DrillTouch {
  id: string;
  campaignCode: string;
  decidedAt: Date;
  toE164: string;
  channel: string;
  purpose: string | null;
  outcome: string;
  reasons: string[];
  state: string;
}
