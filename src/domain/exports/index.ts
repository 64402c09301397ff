import { type ConversionExport, exportConversions } from './conversions.js';
import type { ExportRepos } from './ports.js';
import { conversionSettings } from './settings.js';
import type { ExportFormat, ExportProgress } from './types.js';

export {
  type ConversionExport,
  collectExport,
  EXPORT_TYPES,
  exportConversions,
} from './conversions.js';
export { conversionTime, googleAdsHeader, googleAdsRow } from './google-ads.js';
export { META_MAX_AGE_MS, metaEvent } from './meta.js';
export { type ConversionSettings, conversionSettings, DEFAULT_CONVERSION } from './settings.js';
export type { ConversionRow, ExportCounts, ExportFormat, ExportProgress } from './types.js';

export interface ConversionExportRequest {
  orgId: string;
  campaignCode: string;
  format: ExportFormat;
  since: Date;
  now: Date;
  onProgress?: (p: ExportProgress) => void;
}

export type OpenedExport =
  | { kind: 'ready'; export: ConversionExport }
  | { kind: 'campaign_not_found' }
  | { kind: 'invalid_config'; problem: string };

/**
 * The conversion export of one campaign (org, campaign, since), counted
 * first so progress has a total, then streamed row by row.
 */
export async function openConversionExport(
  repos: ExportRepos,
  r: ConversionExportRequest,
): Promise<OpenedExport> {
  const campaign = await repos.exports.findExportCampaign(repos.db, r.orgId, r.campaignCode);
  if (!campaign) return { kind: 'campaign_not_found' };
  const settings = conversionSettings(campaign.config);
  if (!settings.ok) return { kind: 'invalid_config', problem: settings.problem };
  const q = { orgId: r.orgId, campaignId: campaign.id, since: r.since };
  const total = await repos.exports.countConversions(repos.db, q);
  return {
    kind: 'ready',
    export: exportConversions(repos.exports.conversionRows(repos.db, q), {
      format: r.format,
      settings: settings.settings,
      now: r.now,
      total,
      ...(r.onProgress ? { onProgress: r.onProgress } : {}),
    }),
  };
}
