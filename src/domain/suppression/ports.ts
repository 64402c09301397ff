import type { SuppressionList } from '../compliance/index.js';
import type { AuditLog, Executor, UnitOfWork } from '../ports.js';

/** What a list import writes (import.ts). */
export interface SuppressionImportRepository extends UnitOfWork, AuditLog {
  /** Upserts one batch in one statement; returns how many rows it inserted or changed. */
  upsertBatch(
    ex: Executor,
    orgId: string,
    b: BatchInfo,
    rows: readonly BatchRow[],
  ): Promise<number>;
  deleteBatch(
    ex: Executor,
    orgId: string,
    list: SuppressionList,
    numbers: readonly string[],
  ): Promise<number>;
  /**
   * After a full-file import: removes the list's entries the file did not write, within the
   * scope the file covers (its NANP area codes for the national list, its states for a state
   * list, the whole list otherwise).
   */
  removeUntouched(
    ex: Executor,
    orgId: string,
    list: SuppressionList,
    importId: string,
    scope: { areaCodes?: readonly number[]; states?: readonly string[] },
  ): Promise<number>;
  recordImport(ex: Executor, r: ImportRecord): Promise<void>;
}

/** One number on one list, as suppression_entries stores it (E.164 digits without the plus). */
export interface SuppressionEntry {
  list: SuppressionList;
  number: string;
  state: string | null;
  source: string;
  listed_on: string;
  added_at: string;
}

export interface NewSuppressionEntry {
  list: SuppressionList;
  number: string;
  state: string | null;
  source: string;
  listedOn: string;
  at: Date;
}

/** Entries and settings changed one at a time through the admin API (entries.ts). */
export interface SuppressionEntryRepository extends UnitOfWork, AuditLog {
  getEntry(
    ex: Executor,
    orgId: string,
    list: SuppressionList,
    number: string,
  ): Promise<SuppressionEntry | null>;
  putEntry(ex: Executor, orgId: string, e: NewSuppressionEntry): Promise<void>;
  /** False: no such entry. */
  deleteEntry(ex: Executor, orgId: string, list: SuppressionList, number: string): Promise<boolean>;
  setLitigatorBlocks(ex: Executor, orgId: string, blocks: boolean, at: Date): Promise<void>;
}

/** What the staleness notes read (freshness.ts). */
export interface ListFreshnessRepository {
  readonly db: Executor;
  /** Newest national list date per organization that has imported one. */
  nationalListDates(ex: Executor): Promise<{ org_id: string; listed_on: string }[]>;
}

export interface BatchInfo {
  list: SuppressionList;
  source: string;
  listedOn: string;
  at: Date;
  importId: string;
}

export interface BatchRow {
  number: string;
  state: string | null;
}

export interface ImportRecord {
  id: string;
  orgId: string;
  list: SuppressionList;
  mode: string;
  source: string;
  listedOn: string;
  rows: number;
  added: number;
  removed: number;
  rejected: number;
  startedAt: Date;
  finishedAt: Date;
  actor: string;
}
