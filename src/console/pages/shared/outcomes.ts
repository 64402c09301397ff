/**
 * What the carrier said about calls, as the console words it. The counts are
 * the reports' (`calls_answered`, `calls_missed`: docs/reporting.md); a call
 * the carrier has said nothing final about is neither.
 */
export function callOutcomes(m: { calls_answered: number; calls_missed: number }) {
  const known = m.calls_answered + m.calls_missed;
  return {
    answered: m.calls_answered,
    missed: m.calls_missed,
    /** Answered among the calls with a final outcome; null without one. */
    answerRate: known === 0 ? null : m.calls_answered / known,
  };
}

/** The calls list's outcome filter, as report_call_outcome (src/store/sql) names them. */
export const OUTCOME_FILTERS = [
  ['missed', 'Missed'],
  ['answered', 'Answered'],
  ['pending', 'No outcome yet'],
] as const;
export type OutcomeFilter = (typeof OUTCOME_FILTERS)[number][0];
