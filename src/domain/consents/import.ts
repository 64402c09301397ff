import type { CsvSource } from '../text/csv-reader.js';
import type { NewConsentEvent } from './consents.js';
import { checkConsentCsv } from './csv-rows.js';
import type { ConsentRepos } from './ports.js';

export interface ImportProgress {
  rows: number;
  imported: number;
  duplicates: number;
  rejected: number;
}

export interface ImportSummary {
  rows: number;
  imported: number;
  /** Rows already on file (same statement), skipped so a re-run adds nothing. */
  duplicates: number;
  rejected_count: number;
  /** The first `maxRejectedListed` rejected rows, with their line numbers. */
  rejected: { line: number; errors: string[] }[];
}

export type ImportResult = { ok: true; summary: ImportSummary } | { ok: false; problems: string[] };

export interface ImportOptions {
  orgId: string;
  nowMs: number;
  actor: string;
  requestId: string | null;
  batchSize?: number;
  maxRejectedListed?: number;
  /** Once the header is accepted (all zero), then after every batch stored. */
  onProgress?: (p: ImportProgress) => void;
}

/**
 * Imports a consent CSV (format in consent-csv.ts) for one organization. Valid rows are stored
 * in one transaction, so a failure leaves nothing half-imported; invalid rows are reported by
 * line and skipped. One audit line records the import.
 */
export async function importConsentsCsv(
  repos: ConsentRepos,
  source: CsvSource,
  opts: ImportOptions,
): Promise<ImportResult> {
  const batchSize = opts.batchSize ?? 500;
  const maxListed = opts.maxRejectedListed ?? 1000;
  const at = new Date(opts.nowMs);
  const by = { orgId: opts.orgId, actor: opts.actor, requestId: opts.requestId, at };
  const summary: ImportSummary = {
    rows: 0,
    imported: 0,
    duplicates: 0,
    rejected_count: 0,
    rejected: [],
  };
  let headerProblems: string[] = [];
  await repos.transaction(async (tx) => {
    let batch: NewConsentEvent[] = [];
    const progress = () =>
      opts.onProgress?.({
        rows: summary.rows,
        imported: summary.imported,
        duplicates: summary.duplicates,
        rejected: summary.rejected_count,
      });
    const flush = async () => {
      const added = await repos.consents.appendConsentEvents(tx, by, batch);
      summary.imported += added.length;
      summary.duplicates += batch.length - added.length;
      batch = [];
      progress();
    };
    for await (const item of checkConsentCsv(source, opts.nowMs)) {
      if (item.type === 'header') {
        headerProblems = item.problems;
        // A header that holds: the import starts (a caller can say so before the first batch).
        if (headerProblems.length === 0) progress();
        continue;
      }
      summary.rows++;
      if (item.ok) {
        batch.push(item.event);
        if (batch.length >= batchSize) await flush();
      } else {
        summary.rejected_count++;
        if (summary.rejected.length < maxListed) {
          summary.rejected.push({ line: item.line, errors: item.errors });
        }
      }
    }
    if (headerProblems.length > 0) return;
    await flush();
    await repos.audit.writeAudit(tx, {
      orgId: opts.orgId,
      actor: opts.actor,
      action: 'consent.imported',
      subjectType: 'org',
      subjectId: opts.orgId,
      detail: {
        rows: summary.rows,
        imported: summary.imported,
        duplicates: summary.duplicates,
        rejected: summary.rejected_count,
      },
      requestId: opts.requestId,
      at,
    });
  });
  return headerProblems.length > 0
    ? { ok: false, problems: headerProblems }
    : { ok: true, summary };
}
