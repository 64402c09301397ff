import type { TrafficMetric, TrafficRate } from '../../domain/reports/vocabulary.js';

const ratio = (a: number, b: number) => (b === 0 ? null : a / b);

/** The ratios of one row, from its own counters (null when there is nothing to divide by). */
export function trafficRates(
  metrics: Record<TrafficMetric, number>,
): Record<TrafficRate, number | null> {
  return {
    ambiguous_share: ratio(metrics.sessions_ambiguous, metrics.sessions),
    session_to_call_rate: ratio(metrics.calls_with_session, metrics.sessions),
    call_to_success_rate: ratio(metrics.buyer_success, metrics.calls),
    buyer_success_rate: ratio(
      metrics.buyer_success,
      metrics.buyer_success + metrics.buyer_rejected,
    ),
    buyer_report_seconds_avg: ratio(metrics.buyer_report_seconds_sum, metrics.buyer_reported_calls),
  };
}
