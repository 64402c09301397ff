/**
 * Database failures, translated once at the store boundary (after
 * supabase/storage's `fromDBError`): what the caller did wrong becomes a
 * catalogue error, what the database or the network did becomes a 503 the
 * client may retry, and only what nobody expected stays a 500.
 */
import { AppError, errors, type FailureTranslator } from '../errors.js';

export type StoreFailure = 'unavailable' | 'conflict' | 'retryable';

// SQLSTATE classes and codes (PostgreSQL appendix A).
const BY_SQLSTATE: Record<string, StoreFailure> = {
  '40001': 'retryable', // serialization_failure
  '40P01': 'retryable', // deadlock_detected
  '23505': 'conflict', // unique_violation
  '53100': 'unavailable', // disk_full
  '53200': 'unavailable', // out_of_memory
  '53300': 'unavailable', // too_many_connections
  '57P01': 'unavailable', // admin_shutdown (pg_terminate_backend, a fast shutdown)
  '57P02': 'unavailable', // crash_shutdown
  '57P03': 'unavailable', // cannot_connect_now (starting up, recovering)
  '57P05': 'unavailable', // idle_session_timeout
  '25006': 'unavailable', // read_only_sql_transaction (a standby after failover)
  '58030': 'unavailable', // io_error
};

// Node's socket errors and the file-system errors the embedded store meets.
const BY_ERRNO: Record<string, StoreFailure> = {
  ECONNREFUSED: 'unavailable',
  ECONNRESET: 'unavailable',
  ETIMEDOUT: 'unavailable',
  EPIPE: 'unavailable',
  ENOTFOUND: 'unavailable',
  EAI_AGAIN: 'unavailable',
  EHOSTUNREACH: 'unavailable',
  ENOSPC: 'unavailable',
  EROFS: 'unavailable',
  EDQUOT: 'unavailable',
  EIO: 'unavailable',
};

// node-postgres says these in words, without a code.
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'connection terminated',
  'Client has encountered a connection error',
  'timeout exceeded when trying to connect',
  // A client's own connect timeout (connectionTimeoutMillis on the client, src/store/db.ts).
  'timeout expired',
  'Cannot use a pool after calling end',
  'Client was closed and is not queryable',
  'the database system is shutting down',
  'the database system is starting up',
];

// What a unique violation clashed on, by constraint, for the 409's `reason`.
const CONFLICT_BY_CONSTRAINT: Record<string, string> = {
  campaigns_org_code_key: 'campaign_code_taken',
  tracking_numbers_pkey: 'number_in_use',
  number_owners_pkey: 'number_in_use',
};

interface ErrorLike {
  code?: unknown;
  constraint?: unknown;
  errno?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** The driver's error under Drizzle's wrapper and AggregateErrors, outermost first. */
function* chain(err: unknown): Generator<ErrorLike> {
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0) {
    const e = queue.shift();
    if (e === null || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const like = e as ErrorLike;
    yield like;
    if (like.cause !== undefined) queue.push(like.cause);
    if (Array.isArray(like.errors)) queue.push(...like.errors);
  }
}

/** What kind of store failure this is, or null for anything else (a bug, a catalogue error). */
export function classifyStoreError(err: unknown): StoreFailure | null {
  if (err instanceof AppError) return null;
  for (const e of chain(err)) {
    const code = typeof e.code === 'string' ? e.code : undefined;
    if (code) {
      const bySqlstate = BY_SQLSTATE[code];
      if (bySqlstate) return bySqlstate;
      // Class 08: connection exceptions.
      if (/^08[0-9A-Z]{3}$/.test(code)) return 'unavailable';
      const byErrno = BY_ERRNO[code];
      if (byErrno) return byErrno;
    }
    const message = typeof e.message === 'string' ? e.message : '';
    if (CONNECTION_MESSAGES.some((m) => message.includes(m))) return 'unavailable';
  }
  return null;
}

/**
 * The catalogue error a store failure becomes, or null when it is not one.
 * A retryable failure that was not retried (or ran out of retries) is a 503 too.
 */
export function fromStoreError(err: unknown): AppError | null {
  switch (classifyStoreError(err)) {
    case 'unavailable':
    case 'retryable':
      return errors.unavailable();
    case 'conflict':
      return errors.conflict(conflictReason(err));
    default:
      return null;
  }
}

function conflictReason(err: unknown): string {
  for (const e of chain(err)) {
    const reason = typeof e.constraint === 'string' && CONFLICT_BY_CONSTRAINT[e.constraint];
    if (reason) return reason;
  }
  return 'already_exists';
}

/** The SQLSTATE (or errno) for logs: never the statement's parameters. */
export function storeErrorCode(err: unknown): string | undefined {
  for (const e of chain(err)) if (typeof e.code === 'string') return e.code;
  return undefined;
}

/**
 * A store failure as the error handler takes it (`AppDeps.storeFailure`, handed in by
 * src/wiring.ts): the HTTP layer knows catalogue errors, never the store.
 */
export const translateStoreFailure: FailureTranslator = (err) => {
  const error = fromStoreError(err);
  return error ? { error, code: storeErrorCode(err) } : null;
};

export interface RetryOptions {
  attempts?: number;
  /** Base delay; attempt n waits a random time up to base × 2^n. */
  baseDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs `fn` again after a deadlock or serialization failure, a bounded number
 * of times with full jitter. Only for work that is safe to repeat: a whole
 * transaction that rolled back, with no effect outside the database.
 */
export async function retryTransient<T>(fn: () => Promise<T>, o: RetryOptions = {}): Promise<T> {
  const attempts = o.attempts ?? 4;
  const base = o.baseDelayMs ?? 5;
  const sleep = o.sleep ?? realSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= attempts || classifyStoreError(err) !== 'retryable') throw err;
      await sleep(Math.random() * base * 2 ** attempt);
    }
  }
}
