import Type, { type TSchema } from 'typebox';
import {
  REPORT_BUCKETS,
  TOUCH_GROUPS,
  TOUCH_METRICS,
  TRAFFIC_GROUPS,
  TRAFFIC_METRICS,
  TRAFFIC_MONEY,
  TRAFFIC_RATES,
} from '../../../domain/reports/vocabulary.js';
import { literals } from '../../../domain/schema.js';
import { withDefault } from '../../common.js';

/** Query strings and answers of the reports (contract §8, docs/reporting.md). */

export const isoDate = (description: string) =>
  Type.String({ 'x-check': 'iso_datetime', description: `${description}; ISO 8601 with a zone` });
export const text = (description: string) => Type.String({ maxLength: 2000, description });

export const range = {
  from: Type.Optional(isoDate('Start of the range (default: 7 days before `to`)')),
  to: Type.Optional(isoDate('End of the range, exclusive (default: now)')),
  bucket: withDefault(
    literals(REPORT_BUCKETS, {
      description: "Buckets in the organization's zone; hour ≤ 31 days, day ≤ 400",
    }),
    'day',
  ),
  time_zone: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      'x-check': 'iana_zone',
      description: "Another IANA zone for this answer (default: the organization's)",
    }),
  ),
  campaign: Type.Optional(
    Type.String({ minLength: 1, maxLength: 3, description: 'Only this campaign (its code)' }),
  ),
};

const groupBy = (names: readonly string[]) =>
  Type.Optional(
    Type.String({
      maxLength: 200,
      description: `Comma list of ${names.join(', ')}`,
      examples: [names.slice(0, 2).join(',')],
    }),
  );

const format = withDefault(Type.Union([Type.Literal('json'), Type.Literal('csv')]), 'json');

export const TrafficQuery = Type.Object({
  ...range,
  group_by: groupBy(TRAFFIC_GROUPS),
  source: Type.Optional(
    Type.String({ minLength: 1, maxLength: 200, description: 'Only this source' }),
  ),
  groups: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 1000,
      description:
        'The most groups to list, largest first; the rest are folded into one `other` row per bucket (default and most: `groups_listed`)',
    }),
  ),
  format,
});

export const TouchQuery = Type.Object({
  ...range,
  group_by: groupBy(TOUCH_GROUPS),
  format,
});

const counters = (names: readonly string[], extra: Record<string, TSchema> = {}) =>
  Object.fromEntries([...names.map((m) => [m, Type.Number()]), ...Object.entries(extra)]) as Record<
    string,
    TSchema
  >;

const rateFields = Object.fromEntries(
  TRAFFIC_RATES.map((r) => [r, Type.Union([Type.Number(), Type.Null()])]),
);
export const keyField = Type.Union([Type.String(), Type.Null()]);
const moneyFields = Object.fromEntries(
  TRAFFIC_MONEY.map((m) => [
    m,
    Type.String({
      pattern: '^-?[0-9]+\\.[0-9]{2}$',
      description: "In the organization's currency, two decimal places",
    }),
  ]),
);

/** What a traffic answer says of its groups (docs/reporting.md, "Many groups"). */
const folding = {
  groups_listed: Type.Integer({
    minimum: 1,
    description:
      'The most groups (key combinations) the answer lists: 1,000, fewer with many buckets so that no answer has more than 10,000 rows',
  }),
  groups_folded: Type.Integer({
    minimum: 0,
    description:
      'How many groups, past the largest by sessions then calls, are summed into one row per bucket with `other: true` and null keys (0: none)',
  }),
};
const otherField = {
  other: Type.Optional(
    Type.Literal(true, {
      description: "Present on a bucket's row of the folded groups; its keys are null",
    }),
  ),
};

function reportAnswer(
  metrics: Record<string, TSchema>,
  example: Record<string, unknown>,
  folded = false,
) {
  const row = Type.Object(
    {
      bucket_start: Type.Optional(Type.String({ description: 'ISO 8601 with the zone offset' })),
      ...(folded ? otherField : {}),
      ...metrics,
    },
    { additionalProperties: keyField, description: 'Group keys by name, then the counters' },
  );
  return Type.Object(
    {
      org_id: Type.String(),
      time_zone: Type.String(),
      from: Type.String(),
      to: Type.String(),
      bucket: Type.String(),
      group_by: Type.Array(Type.String()),
      ...(folded ? folding : {}),
      rows: Type.Array(row),
      totals: row,
    },
    { examples: [example] },
  );
}

const zeros = (names: readonly string[]) => Object.fromEntries(names.map((n) => [n, 0]));

export const TrafficAnswer = reportAnswer(
  counters(TRAFFIC_METRICS, { ...moneyFields, ...rateFields }),
  {
    org_id: 'org_019a2b3c4d5e6f',
    time_zone: 'America/New_York',
    from: '2026-03-09T00:00:00-04:00',
    to: '2026-03-11T00:00:00-04:00',
    bucket: 'day',
    group_by: ['source'],
    groups_listed: 22,
    groups_folded: 0,
    rows: [
      {
        bucket_start: '2026-03-10T00:00:00-04:00',
        source: 'meta',
        ...zeros(TRAFFIC_METRICS),
        sessions: 1,
        calls: 1,
        calls_with_session: 1,
        unique_callers: 1,
        calls_first_time: 1,
        buyer_reports: 1,
        buyer_success: 1,
        buyer_reported_calls: 1,
        buyer_report_seconds_sum: 3600,
        calls_answered_by_buyer: 1,
        calls_billable: 1,
        revenue: '12.50',
        ambiguous_share: 0,
        session_to_call_rate: 1,
        call_to_success_rate: 1,
        buyer_success_rate: 1,
        buyer_report_seconds_avg: 3600,
      },
    ],
    totals: {
      ...zeros(TRAFFIC_METRICS),
      sessions: 1,
      calls: 1,
      revenue: '0.00',
      ambiguous_share: 0,
      session_to_call_rate: 1,
      call_to_success_rate: null,
      buyer_success_rate: null,
      buyer_report_seconds_avg: null,
    },
  },
  true,
);

export const TouchAnswer = reportAnswer(counters(TOUCH_METRICS), {
  org_id: 'org_019a2b3c4d5e6f',
  time_zone: 'UTC',
  from: '2026-03-09T00:00:00Z',
  to: '2026-03-10T00:00:00Z',
  bucket: 'day',
  group_by: ['reason'],
  rows: [
    {
      bucket_start: '2026-03-09T00:00:00Z',
      reason: 'quiet_hours',
      touches: 3,
      placed: 0,
      blocked: 3,
      delivered: 0,
      failed: 0,
    },
    {
      bucket_start: '2026-03-09T00:00:00Z',
      reason: 'none',
      touches: 5,
      placed: 5,
      blocked: 0,
      delivered: 4,
      failed: 1,
    },
  ],
  totals: { touches: 8, placed: 5, blocked: 3, delivered: 4, failed: 1 },
});
