import Type, { type Static } from 'typebox';
import { CampaignCodeParams, HTTPValidationError, tenantErrors } from '../common.js';

export const BuyerReportBody = Type.Object(
  {
    call_id: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'A call of this campaign (call_…)',
    }),
    report_id: Type.String({
      minLength: 1,
      maxLength: 128,
      description:
        "The buyer's own id for the report, unique per campaign: a retry with the same id and payload is answered 200 with the first event_id",
    }),
    disposition: Type.Union([Type.Literal('success'), Type.Literal('rejected')], {
      description: "The buyer's outcome; a later report with a new report_id may change it",
    }),
    notes: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type BuyerReportBody = Static<typeof BuyerReportBody>;

const response = (created: boolean, description: string) =>
  Type.Object(
    {
      event_id: Type.String({ description: 'The event (evt_…) recording this report' }),
      created: Type.Literal(created),
    },
    { description },
  );

export const buyerReportSchema = {
  summary: 'Post a buyer report',
  description:
    "Records a buyer's disposition for a call of the campaign. The call's current disposition is its latest report; every report stays in the audit trail.",
  tags: ['buyer-reports'],
  params: CampaignCodeParams,
  body: BuyerReportBody,
  response: {
    201: response(
      true,
      'First report of this report_id: the event and its audit record are stored',
    ),
    200: response(
      false,
      'The same report_id with the same call_id, disposition and notes: the first event_id, nothing stored but an audit line',
    ),
    ...tenantErrors(['campaign_not_found', 'call_not_found']),
    422: {
      ...HTTPValidationError,
      description:
        'Validation error (FastAPI / Pydantic v2 shape). Besides field bounds and unknown keys: a value_error at ["body","call_id"] when the call started more than the campaign\'s report_window_days ago, and at ["body","report_id"] when the report_id was used with a different payload.',
    },
  },
};
