import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { AppDeps } from '../../../deps.js';
import { collectExport, openConversionExport } from '../../../domain/exports/index.js';
import { errors } from '../../../errors.js';
import { adminRoute } from '../shared/openapi.js';
import { ORG_PREFIX } from '../shared/org-scope.js';
import { CampaignParams } from '../shared/params.js';
import { EXPORT_HEADERS } from './headers.js';
import { ExportQuery } from './schema.js';

/**
 * GET …/exports/conversions: the upload file for Google Ads or Meta, with
 * the counts in X-Export-* headers. Buffered, so the counts can lead.
 */
export function exportRoutes(admin: FastifyInstance, deps: AppDeps): void {
  const getCampaignsByCodeExportsConversions = adminRoute(
    'exports',
    "A campaign's conversion upload file for Google Ads (CSV) or Meta (JSON)",
    {
      params: CampaignParams,
      query: ExportQuery,
      answer: null,
      media: {
        'text/csv': Type.String({
          description: 'Google Ads offline conversions (format=google-ads)',
        }),
        'application/json': Type.Object(
          { data: Type.Array(Type.Record(Type.String(), Type.Unknown())) },
          { description: "Meta's Conversions API events (format=meta)" },
        ),
      },
      headers: [
        'Content-Disposition',
        'X-Export-Candidates',
        'X-Export-Rows',
        'X-Export-Skipped-No-Click-Id',
        'X-Export-Skipped-Too-Old',
      ],
      errors: [409],
      description:
        'The file itself is the body; the counts are in the X-Export-* headers. A campaign whose conversion config is invalid is 409 `conflict` with the problem in `reason`.',
    },
  );
  admin.get(
    `${ORG_PREFIX}/campaigns/:code/exports/conversions`,
    getCampaignsByCodeExportsConversions.options,
    async (req, reply) => {
      const { params, query } = getCampaignsByCodeExportsConversions.read(req);
      const opened = await openConversionExport(deps.repos, {
        orgId: params.org_id,
        campaignCode: params.code,
        format: query.format,
        since: new Date(query.since),
        now: new Date(deps.clock.now()),
      });
      if (opened.kind === 'campaign_not_found') throw errors.campaignNotFound();
      if (opened.kind === 'invalid_config') {
        throw errors.conflict(`conversion_config_invalid: ${opened.problem}`);
      }
      const file = await collectExport(opened.export);
      const counts = opened.export.counts;
      for (const [key, header] of Object.entries(EXPORT_HEADERS)) {
        reply.header(header, String(counts[key as keyof typeof counts]));
      }
      return reply
        .type(opened.export.contentType)
        .header(
          'content-disposition',
          `attachment; filename="conversions-${params.code}-${query.format}.${opened.export.extension}"`,
        )
        .send(file);
    },
  );
}
