import type { Destination } from './ports.js';

/**
 * The admin API's reads of conversion destinations and uploads (`deps.queries.conversions`,
 * implemented in src/store/queries/conversion-uploads.ts). Committed rows, no executor; every
 * read names the organization, so another organization's rows read as missing.
 */
export interface ConversionQueries {
  listDestinations(orgId: string): Promise<Destination[]>;
  /** Newest first, at most `limit` rows (the route asks one past its page: src/http/paging.ts). */
  listUploads(orgId: string, destinationId: string, q: UploadListQuery): Promise<UploadRow[]>;
  /** Newest first, at most `limit`. */
  listUploadAttempts(
    orgId: string,
    destinationId: string,
    q: { uploadId?: string | undefined; limit: number },
  ): Promise<UploadAttemptRow[]>;
  destinationStats(orgId: string, destinationId: string): Promise<DestinationStats>;
  /** Every upload of one call, per destination (the console's call page). */
  listCallUploads(orgId: string, callId: string): Promise<CallUploadRow[]>;
}

export interface CallUploadRow extends UploadRow {
  destinationId: string;
  destinationName: string;
  platform: string;
}

export interface UploadListQuery {
  status?: string | undefined;
  limit: number;
  /** The id of the last row of the previous page (newest first). */
  after?: string | undefined;
}

export interface UploadRow {
  id: string;
  callId: string;
  kind: string;
  dedupeKey: string;
  status: string;
  attempts: number;
  reasonCode: string | null;
  reason: string | null;
  nextAttemptAt: Date;
  sentAt: Date | null;
  createdAt: Date;
}

export interface UploadAttemptRow {
  id: string;
  uploadId: string;
  attempt: number;
  outcome: string;
  statusCode: number | null;
  reason: string | null;
  startedAt: Date;
  finishedAt: Date;
}

/** Per destination: last success, how many rows per status, failures per reason code. */
export interface DestinationStats {
  lastSuccessAt: Date | null;
  byStatus: Record<string, number>;
  failedByReason: Record<string, number>;
}
