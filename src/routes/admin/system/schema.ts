import Type from 'typebox';
import { obj } from '../shared/views.js';

export const Health = obj({ status: Type.Literal('ok') });

export const MetricsUnauthorized = Type.Object(
  { detail: Type.Literal('invalid_metrics_token') },
  { additionalProperties: false },
);

const State = Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')]);
export const ReadinessDetail = Type.Object({
  status: State,
  checks: Type.Record(
    Type.String(),
    Type.Object({ status: State, detail: Type.Optional(Type.String()) }),
  ),
});
