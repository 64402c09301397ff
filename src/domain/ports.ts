/**
 * What every capability asks of the store, declared here so the domain imports nothing from
 * src/store. Each capability declares its own repository interface beside its code
 * (`<capability>/ports.ts`); src/store/repos/index.ts implements them all from the repository
 * functions and the wiring hands that in (`AppDeps.repos`). docs/architecture.md, "Repositories".
 */

declare const executor: unique symbol;
declare const transaction: unique symbol;

/**
 * The database or one of its transactions, as the store hands it out. The domain only passes
 * it back to repository methods, so several of them can run in one transaction.
 */
export interface Executor {
  readonly [executor]: true;
}

/** A transaction: locks taken through it hold until it ends. */
export interface Transaction extends Executor {
  readonly [transaction]: true;
}

export interface UnitOfWork {
  /** Outside any transaction: each repository call is its own statement. */
  readonly db: Executor;
  /**
   * Runs `fn` in one transaction, committed when it resolves. After a deadlock or a
   * serialization failure the store runs it again whole, so `fn` talks only to the database.
   */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
}

export interface AuditEntry {
  orgId: string | null;
  actor: string;
  action: string;
  subjectType: string;
  subjectId: string;
  detail?: Record<string, unknown>;
  requestId?: string | null;
  at: Date;
}

export interface AuditLog {
  /** Written in the caller's transaction, so the record and the change commit together. */
  writeAudit(ex: Executor, e: AuditEntry): Promise<void>;
}
