/** Examples for the admin OpenAPI document, merged in ../examples.ts. */
/** Success answers of the pools operations, by `METHOD /url`. */
export const responseExamples: Record<string, unknown> = {
  'GET /admin/orgs/:org_id/campaigns/:code/pool': {
    campaign_code: 'spr',
    window: { days: 7, since: '2026-02-23T15:04:05.000Z', until: '2026-03-02T15:04:05.000Z' },
    numbers: 2,
    has_overflow_number: true,
    held_now: 1,
    peak_held: 2,
    hourly: [
      { hour: '2026-03-02T13:00:00.000Z', new_sessions: 3, peak_held: 2 },
      { hour: '2026-03-02T14:00:00.000Z', new_sessions: 2, peak_held: 2 },
    ],
    sessions: { allocated: 41, sticky: 12, shared: 3, overflow: 1 },
    calls: {
      total: 9,
      by_rule: { holder: 7, grace: 1, repeat_caller: 1, campaign_only: 0 },
      on_shared_number: 1,
    },
    accuracy: {
      estimated: 0.91,
      method:
        "sizing model (docs/pool-sizing.md) at the current 2 numbers over this window's hourly new sessions, mean hold 1800 s and the observed call timing",
      call_mix_source: 'observed',
    },
    recommendation: {
      target: 0.95,
      size: 3,
      predicted_accuracy: 0.97,
      ceiling: 0.99,
      basis: 'model',
      busiest_hour_new_sessions: 3,
      mean_hold_seconds: 1800,
      busy_hour_load_erlangs: 1.5,
      note: null,
    },
    rules_of_thumb: [
      { source: 'CallTrackingMetrics', rule: '1 number per 20 daily visitors', size: 1 },
      { source: 'CallMatrix', rule: 'peak concurrent visitors ÷ 4', size: 1 },
    ],
  },
};
