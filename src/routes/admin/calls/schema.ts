import Type from 'typebox';
import { CALL_OUTCOMES } from '../../../domain/admin/queries.js';
import { OFFER_OUTCOMES } from '../../../domain/routing/vocabulary.js';
import { literals } from '../../../domain/schema.js';
import { ATTRIBUTION_RULES } from '../../../domain/vocabulary.js';
import { campaign, listQuery, timeRange } from '../shared/list-query.js';
import { e164, isoDate } from '../shared/params.js';
import { maybe, obj, time } from '../shared/views.js';

export const RecordCall = Type.Object(
  {
    to: e164,
    from: Type.String({
      minLength: 1,
      maxLength: 32,
      description: 'Caller id as the carrier gave it',
    }),
    started_at: Type.Optional(isoDate),
  },
  { additionalProperties: false },
);

export const CallItem = Type.Object({
  call_id: Type.String(),
  campaign_code: Type.String(),
  tracking_number: Type.String(),
  from: Type.String(),
  started_at: time,
  attribution: Type.Object({
    kind: Type.String({ description: 'session | recent_holder | repeat_caller | campaign' }),
    ambiguous: Type.Boolean(),
    dni_session_id: maybe(Type.String()),
    visitor_id: maybe(Type.String()),
    landing_url: maybe(Type.String()),
    click_ids: Type.Record(Type.String(), Type.String()),
    utm: Type.Record(Type.String(), Type.String()),
  }),
  carrier: maybe(Type.String()),
  carrier_call_sid: maybe(Type.String()),
  status: maybe(Type.String()),
  duration_seconds: maybe(Type.Integer()),
  ended_at: maybe(time),
  disposition: maybe(Type.String()),
  disposition_at: maybe(time),
  buyer_id: maybe(Type.String({ description: 'The buyer who answered (routing), or null' })),
  billable: maybe(
    Type.Boolean({ description: "Fixed when the answering buyer's leg ends; null before" }),
  ),
  payout: maybe(
    Type.String({
      description: "The buyer's payout in the organization's currency; 0.00 when not billable",
      examples: ['25.00'],
    }),
  ),
  created_at: time,
});

export const CallRecorded = obj({
  call_id: Type.String(),
  campaign_code: Type.String(),
  dni_session_id: maybe(Type.String()),
  attribution: Type.String({ description: 'session | recent_holder | repeat_caller | campaign' }),
  ambiguous: Type.Boolean(),
});

export const CallListQuery = listQuery({
  campaign,
  ...timeRange,
  status: Type.Optional(
    Type.String({ minLength: 1, maxLength: 32, description: "The carrier's latest call status" }),
  ),
  attribution: Type.Optional(literals(ATTRIBUTION_RULES)),
  outcome: Type.Optional(
    literals(CALL_OUTCOMES, {
      description:
        'What the carrier said, as reports count it: answered (completed with a duration), missed (busy, no-answer, failed, canceled, completed without one), pending (nothing final yet)',
    }),
  ),
  source: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'The source as reports name it (utm_source, else the click id network, else direct; `unattributed` for calls without a session); case, spacing and aliases folded as in reports',
    }),
  ),
});

export const CallParams = Type.Object({
  org_id: Type.String({ minLength: 1, maxLength: 64 }),
  call_id: Type.String({ minLength: 1, maxLength: 64 }),
});

export const OfferItem = Type.Object({
  buyer_id: Type.String(),
  offered_at: time,
  outcome: maybe(
    literals(OFFER_OUTCOMES, { description: 'null while the offer is live (ringing or talking)' }),
  ),
  duration_seconds: maybe(Type.Integer({ description: "The buyer's leg, when answered" })),
});

/** One call: its list item, every offer in order, and its buyer reports (oldest first). */
export const CallDetail = Type.Object({
  ...CallItem.properties,
  offers: Type.Array(OfferItem),
  buyer_reports: Type.Array(
    Type.Object({
      event_id: Type.String(),
      report_id: Type.String(),
      disposition: Type.String(),
      notes: maybe(Type.String()),
      key_id: Type.String(),
      at: time,
    }),
  ),
});
