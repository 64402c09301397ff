import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../deps.js';
import { postBuyerReport, type ReportOutcome } from '../../domain/buyer-reports/report.js';
import { errors } from '../../errors.js';
import { principalOf, requireScope } from '../../http/auth.js';
import { validateRequest } from '../../http/validate.js';
import { bearerSecurity, CampaignCodeParams } from '../common.js';
import { BuyerReportBody, buyerReportSchema } from './schema.js';

export const REPORT_ID_REUSED =
  'report_id was already used with a different call_id, disposition or notes';
export const windowClosed = (days: number) =>
  `the call started more than the campaign's report window of ${days} days ago`;

function toHttp(
  outcome: ReportOutcome,
  body: BuyerReportBody,
): { status: 200 | 201; eventId: string } {
  switch (outcome.kind) {
    case 'created':
      return { status: 201, eventId: outcome.eventId };
    case 'replayed':
      return { status: 200, eventId: outcome.eventId };
    case 'campaign_not_found':
      throw errors.campaignNotFound();
    case 'call_not_found':
      throw errors.callNotFound();
    case 'refused':
      throw outcome.reason === 'report_id_reused'
        ? errors.field(['body', 'report_id'], REPORT_ID_REUSED, body.report_id)
        : errors.field(['body', 'call_id'], windowClosed(outcome.windowDays), body.call_id);
  }
}

export function buyerReportRoute(app: FastifyInstance, deps: AppDeps): void {
  const now = () => deps.clock.now();
  const postDniCampaignsByCampaignCodeBuyerReport = validateRequest({
    params: CampaignCodeParams,
    body: BuyerReportBody,
  });
  app.post('/dni/campaigns/:campaign_code/buyer-report', {
    schema: { ...buyerReportSchema, security: bearerSecurity },
    onRequest: requireScope(deps.keyring, 'execute', now, true),
    preHandler: postDniCampaignsByCampaignCodeBuyerReport.hook,
    handler: async (request, reply) => {
      const { params, body } = postDniCampaignsByCampaignCodeBuyerReport.read(request);
      const p = principalOf(request);
      const outcome = await postBuyerReport(
        deps.repos,
        {
          orgId: p.orgId,
          keyId: p.keyId,
          buyerId: p.buyerId,
          requestId: request.id,
          now: new Date(now()),
        },
        params.campaign_code,
        body,
      );
      const { status, eventId } = toHttp(outcome, body);
      return reply.code(status).send({ event_id: eventId, created: status === 201 });
    },
  });
}
