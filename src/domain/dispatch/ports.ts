import type { Executor } from '../ports.js';
import type { DispatchPayload } from './payload.js';

/** The dispatch queue (worker.ts): `repos.dispatch`. Claims are leases taken with SKIP LOCKED. */
export interface DispatchRepository {
  claimJobs(ex: Executor, c: Claim): Promise<ClaimedJob[]>;
  /**
   * Records an attempt and moves the job on. Fenced by the lease: if another worker has claimed
   * the job since, only the attempt row is written; false then.
   */
  recordOutcome(
    ex: Executor,
    job: ClaimedJob,
    worker: string,
    carrier: string,
    o: Outcome,
    nowMs: number,
  ): Promise<boolean>;
}

/** The simulated carrier's outbox (carriers/simulated.ts): `repos.simulatedMessages`. */
export interface SimulatedMessageRepository {
  /**
   * Records a message; a repeated idempotency key keeps the first message and counts the extra
   * request. Answers the message id.
   */
  recordSimulatedMessage(ex: Executor, m: NewSimulatedMessage): Promise<string | null>;
}

export interface NewSimulatedMessage {
  id: string;
  idempotencyKey: string;
  touchId: string;
  channel: string;
  toE164: string;
  fromE164: string | null;
  body: string | null;
  createdAt: Date;
}

export interface ClaimedJob {
  jobId: string;
  touchId: string;
  orgId: string;
  /** 1 for the first hand-over. */
  attempt: number;
  payload: DispatchPayload;
  attemptId: string;
  /** An earlier attempt was started and never recorded: its worker died or lost the lease. */
  priorUnknown: boolean;
}

export interface Claim {
  nowMs: number;
  leaseMs: number;
  limit: number;
  worker: string;
  carrier: string;
}

export interface Outcome {
  /** What happened to this attempt. */
  attempt: 'accepted' | 'retry' | 'failed' | 'unknown' | 'skipped';
  carrierId: string | null;
  error: string | null;
  /** The job afterwards: due again at `retryAtMs`, or finished with the touch's final state. */
  next:
    | { state: 'pending'; retryAtMs: number }
    | { state: 'final'; touch: 'delivered' | 'failed' | 'unknown' };
}

export interface SimulatedMessageRepos {
  readonly db: Executor;
  simulatedMessages: SimulatedMessageRepository;
}
