import Type, { type Static } from 'typebox';
import { CampaignCodeParams, tenantErrors } from '../common.js';

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
      description: "The buyer's own id for the report",
    }),
    disposition: Type.Union([Type.Literal('success'), Type.Literal('rejected')]),
    notes: Type.Optional(Type.String({ maxLength: 2000 })),
  },
  { additionalProperties: false },
);
export type BuyerReportBody = Static<typeof BuyerReportBody>;

export const BuyerReportResponse = Type.Object({
  event_id: Type.String(),
  created: Type.Boolean({
    description: 'false: the same report_id was already recorded with this payload',
  }),
});

export const buyerReportSchema = {
  summary: 'Post a buyer report',
  tags: ['buyer-reports'],
  params: CampaignCodeParams,
  body: BuyerReportBody,
  response: {
    201: BuyerReportResponse,
    200: BuyerReportResponse,
    ...tenantErrors(['campaign_not_found', 'call_not_found']),
  },
};
