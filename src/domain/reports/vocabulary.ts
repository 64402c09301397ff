/**
 * The words of the reports (contract §8), as `as const` arrays: the admin
 * schema, the store's queries and the CLI derive from these.
 */

export const REPORT_KINDS = ['traffic', 'touches'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export const REPORT_BUCKETS = ['none', 'hour', 'day', 'week', 'month'] as const;
export type ReportBucket = (typeof REPORT_BUCKETS)[number];

export const TRAFFIC_GROUPS = [
  'campaign',
  'source',
  'medium',
  'utm_campaign',
  'landing_path',
  'attribution',
  'tracking_number',
  'buyer',
] as const;
export type TrafficGroup = (typeof TRAFFIC_GROUPS)[number];

export const TOUCH_GROUPS = [
  'campaign',
  'channel',
  'purpose',
  'outcome',
  'reason',
  'state',
] as const;
export type TouchGroup = (typeof TOUCH_GROUPS)[number];

/** Traffic counters, in the order the CSV and the CLI print them. */
export const TRAFFIC_METRICS = [
  'sessions',
  'sessions_shared',
  'sessions_overflow',
  'sessions_ambiguous',
  'session_renewals',
  'calls',
  'calls_with_session',
  'calls_on_shared_number',
  'unique_callers',
  'calls_first_time',
  'calls_repeat',
  'calls_answered',
  'calls_missed',
  'calls_under_30s',
  'calls_30s_to_2m',
  'calls_2m_to_10m',
  'calls_over_10m',
  'buyer_reports',
  'buyer_corrections',
  'buyer_success',
  'buyer_rejected',
  'buyer_reported_calls',
  'buyer_report_seconds_sum',
  'calls_answered_by_buyer',
  'calls_billable',
] as const;
export type TrafficMetric = (typeof TRAFFIC_METRICS)[number];

/** Ratios derived from the counters of the same row (null when the denominator is 0). */
export const TRAFFIC_RATES = [
  'ambiguous_share',
  'session_to_call_rate',
  'call_to_success_rate',
  'buyer_success_rate',
  'buyer_report_seconds_avg',
] as const;
export type TrafficRate = (typeof TRAFFIC_RATES)[number];

/**
 * Money of a row, in the organization's currency as a decimal string with two places (contract
 * §11): `revenue`, the payouts of billable calls whose latest buyer report is not `rejected`.
 */
export const TRAFFIC_MONEY = ['revenue'] as const;
export type TrafficMoney = (typeof TRAFFIC_MONEY)[number];

export const TOUCH_METRICS = ['touches', 'placed', 'blocked', 'delivered', 'failed'] as const;
export type TouchMetric = (typeof TOUCH_METRICS)[number];

/** A touch's outcome: blocked at decision, else its dispatch state (`queued` while pending). */
export const TOUCH_OUTCOMES = ['blocked', 'queued', 'delivered', 'failed', 'unknown'] as const;

/** Group keys of a call without a session, and of a touch whose number had no known state. */
export const UNATTRIBUTED = 'unattributed';
export const UNKNOWN_STATE = 'unknown';
