import type { TrafficMetric, TrafficRate } from '../../domain/reports/vocabulary.js';

const ratio = (a: number, b: number) => (b === 0 ? null : a / b);

/** The ratios of one row, from its own counters (null when there is nothing to divide by). */
export function trafficRates(m: Record<TrafficMetric, number>): Record<TrafficRate, number | null> {
  return {
    ambiguous_share: ratio(m.sessions_ambiguous, m.sessions),
    session_to_call_rate: ratio(m.calls_with_session, m.sessions),
    call_to_success_rate: ratio(m.buyer_success, m.calls),
    buyer_success_rate: ratio(m.buyer_success, m.buyer_success + m.buyer_rejected),
    buyer_report_seconds_avg: ratio(m.buyer_report_seconds_sum, m.buyer_reported_calls),
  };
}
