import type { SuppressionFacts, SuppressionList } from '../compliance/index.js';
import type { AuditLog, Executor, UnitOfWork } from '../ports.js';

/** Suppression lists, their imports and settings: `repos.suppression`. */
export interface SuppressionRepository {
  /** Everything the touch gate needs from the suppression lists, in one round trip. */
  suppressionFacts(ex: Executor, orgId: string, e164: string): Promise<SuppressionFacts>;
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
  /** Newest national list date per organization that has imported one. */
  nationalListDates(ex: Executor): Promise<{ org_id: string; listed_on: string }[]>;
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

/** A list import (import.ts) and the admin API's entries and settings (entries.ts). */
export interface SuppressionRepos extends UnitOfWork {
  suppression: SuppressionRepository;
  audit: AuditLog;
}

/** What the staleness notes read (freshness.ts). */
export interface ListFreshnessRepos {
  readonly db: Executor;
  suppression: Pick<SuppressionRepository, 'nationalListDates'>;
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
