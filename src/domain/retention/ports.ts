import type { Executor } from '../ports.js';

/**
 * What the retention job (src/retention/job.ts) asks of the store: a lease so one process at a
 * time works, a cursor per rule that walks a time-ordered primary key, and the rules, each
 * deleting at most `batch` rows in one short statement (src/store/repos/retention.ts).
 */
export interface BatchResult {
  deleted: number;
  /** Nothing left to delete now. */
  done: boolean;
  /** Where the next batch of a cursor rule starts ('' for the others). */
  cursor: string;
}

/** The retention job's rules and bookkeeping: `repos.retention`. Each call is one statement. */
/** A rule's batch: rows older than `days` before `nowMs`, at most `batch` of them. */
export interface RuleWindow {
  nowMs: number;
  days: number;
  batch: number;
}

export interface RetentionRepository {
  /** Takes or renews the lease `name` for `holder` until `until`; false while another holds it. */
  takeLease(ex: Executor, name: string, holder: string, until: Date, now: Date): Promise<boolean>;
  /** Hands the lease over at once instead of after it expires. */
  releaseLease(ex: Executor, name: string, holder: string): Promise<void>;
  /** A rule's cursor and when it last restarted from the beginning; null when it has none. */
  readCursor(ex: Executor, rule: string): Promise<{ after: string; resetAt: Date } | null>;
  /** Starts the rule over from the beginning at `at`. */
  resetCursor(ex: Executor, rule: string, at: Date): Promise<void>;
  saveCursor(ex: Executor, rule: string, after: string): Promise<void>;

  pruneIdempotency(ex: Executor, o: { nowMs: number; batch: number }): Promise<BatchResult>;
  pruneDispatchJobs(ex: Executor, o: RuleWindow): Promise<BatchResult>;
  pruneSimulatedMessages(ex: Executor, o: RuleWindow): Promise<BatchResult>;
  pruneSessions(ex: Executor, o: RuleWindow & { after: string }): Promise<BatchResult>;
  pruneWebhookDeliveries(
    ex: Executor,
    o: RuleWindow,
  ): Promise<BatchResult & { attempts: number; events: number }>;
  pruneWebhookEvents(ex: Executor, o: RuleWindow & { after: string }): Promise<BatchResult>;
  /** Folds report deltas into the rollups (not a deletion; reports are exact either way). */
  foldReportDeltas(ex: Executor, o: { batch: number }): Promise<BatchResult>;
  /** Makes the space of folded deltas reusable (VACUUM; outside any transaction). */
  vacuumReportDeltas(ex: Executor): Promise<void>;
}

export interface RetentionRepos {
  readonly db: Executor;
  retention: RetentionRepository;
}
