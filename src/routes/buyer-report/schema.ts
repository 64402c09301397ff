import Type, { type Static } from 'typebox';
import { literals } from '../../domain/schema.js';
import { DISPOSITIONS } from '../../domain/vocabulary.js';
import { CampaignCodeParams, Detail, HTTPValidationError, tenantErrors } from '../common.js';
import { type Named, ref, reply } from '../openapi.js';

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
    disposition: literals(DISPOSITIONS, {
      description: "The buyer's outcome; a later report with a new report_id may change it",
    }),
    notes: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  {
    $id: 'BuyerReportRequest',
    additionalProperties: false,
    examples: [
      {
        call_id: 'call_019caf10c2a87b3e9d1f4a6b5c8e7d21',
        report_id: 'buyer-4711',
        disposition: 'success',
        notes: 'Booked a consultation',
      },
    ],
  },
);
export type BuyerReportBody = Static<typeof BuyerReportBody>;

const report = ($id: string, created: boolean, description: string) =>
  Type.Object(
    {
      event_id: Type.String({ description: 'The event (evt_…) recording this report' }),
      created: Type.Literal(created),
    },
    {
      $id,
      description,
      examples: [{ event_id: 'evt_019caf10c2a87b3e9d1f4a6b5c8e7d22', created }],
    },
  );

export const BuyerReportCreated = report(
  'BuyerReportCreated',
  true,
  'A new report: its event and audit record are stored',
);
export const BuyerReportReplayed = report(
  'BuyerReportReplayed',
  false,
  'A retry of a stored report: the first event_id, nothing new stored',
);
export const CampaignOrCallNotFoundError = Detail(
  'CampaignOrCallNotFoundError',
  ['campaign_not_found', 'call_not_found'],
  "No such campaign, or no such call in the campaign, in the caller's organization",
);

export const buyerReportSchema = {
  operationId: 'postBuyerReport',
  summary: 'Post a buyer report',
  description:
    "Records a buyer's disposition for a call of the campaign. The call's current disposition is its latest report; every report stays in the audit trail. Reports are idempotent by report_id: the same report_id with the same payload is answered 200 with the first event_id.",
  tags: ['buyer-reports'],
  params: CampaignCodeParams,
  body: ref(BuyerReportBody),
  response: {
    201: reply(
      'First report of this report_id: the event and its audit record are stored',
      BuyerReportCreated,
    ),
    200: reply(
      'The same report_id with the same call_id, disposition and notes: the first event_id, nothing stored but an audit line',
      BuyerReportReplayed,
    ),
    ...tenantErrors(CampaignOrCallNotFoundError),
    422: reply(
      'Validation error (FastAPI / Pydantic v2 shape); nothing was stored. Besides field bounds and unknown keys: a value_error at ["body","call_id"] when the call started more than the campaign\'s report_window_days ago, and at ["body","report_id"] when the report_id was used with a different payload.',
      HTTPValidationError,
      { headers: ['X-Error-Hint'] },
    ),
  },
};

export const buyerReportSchemas: Named[] = [
  BuyerReportBody,
  BuyerReportCreated,
  BuyerReportReplayed,
  CampaignOrCallNotFoundError,
];
