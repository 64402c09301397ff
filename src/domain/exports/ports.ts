import type { Executor } from '../ports.js';
import type { ConversionRow } from './types.js';

/** Conversion exports: `repos.exports`. */
export interface ExportRepository {
  findExportCampaign(ex: Executor, orgId: string, code: string): Promise<ExportCampaign | null>;
  countConversions(ex: Executor, q: ConversionQuery): Promise<number>;
  /**
   * Calls whose current disposition is success, oldest first, with their session's click ids;
   * read in pages so no row is skipped or repeated while reports keep arriving.
   */
  conversionRows(
    ex: Executor,
    q: ConversionQuery,
    pageSize?: number,
  ): AsyncGenerator<ConversionRow, void, undefined>;
}

export interface ExportCampaign {
  id: string;
  code: string;
  config: unknown;
}

export interface ConversionQuery {
  orgId: string;
  campaignId: string;
  /** Calls that started at or after this time. */
  since: Date;
}

export interface ExportRepos {
  readonly db: Executor;
  exports: ExportRepository;
}
