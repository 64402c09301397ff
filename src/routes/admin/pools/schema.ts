import Type from 'typebox';
import { withDefault } from '../../common.js';

export const PoolQuery = Type.Object({
  days: withDefault(
    Type.Integer({ minimum: 1, maximum: 365, description: 'Window, days back' }),
    30,
  ),
  target: withDefault(
    Type.Number({
      exclusiveMinimum: 0,
      exclusiveMaximum: 1,
      description: 'Attribution accuracy the recommended pool size aims at',
    }),
    0.99,
  ),
});

const count = Type.Integer({ minimum: 0 });
const ratio = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()]);
const time = Type.String({ format: 'date-time' });

/** poolHealthView (src/domain/dni/pool-health.ts). */
export const PoolHealth = Type.Object({
  campaign_code: Type.String(),
  window: Type.Object({ days: Type.Integer(), since: time, until: time }),
  numbers: count,
  has_overflow_number: Type.Boolean(),
  held_now: count,
  peak_held: count,
  hourly: Type.Array(Type.Object({ hour: time, new_sessions: count, peak_held: count })),
  sessions: Type.Object({ allocated: count, sticky: count, shared: count, overflow: count }),
  calls: Type.Object({
    total: count,
    by_rule: Type.Object({
      holder: count,
      grace: count,
      repeat_caller: count,
      campaign_only: count,
    }),
    on_shared_number: count,
  }),
  accuracy: Type.Object({
    estimated: ratio,
    method: Type.String(),
    call_mix_source: Type.Union([Type.Literal('observed'), Type.Literal('assumed')]),
  }),
  recommendation: Type.Object({
    target: Type.Number(),
    size: Type.Union([Type.Integer(), Type.Null()]),
    predicted_accuracy: ratio,
    ceiling: ratio,
    basis: Type.Union([
      Type.Literal('model'),
      Type.Literal('no_traffic'),
      Type.Literal('target_unreachable'),
    ]),
    busiest_hour_new_sessions: count,
    mean_hold_seconds: Type.Union([Type.Integer(), Type.Null()]),
    busy_hour_load_erlangs: Type.Number({ minimum: 0 }),
    note: Type.Union([Type.String(), Type.Null()]),
  }),
  rules_of_thumb: Type.Array(
    Type.Object({ source: Type.String(), rule: Type.String(), size: Type.Integer() }),
  ),
});
