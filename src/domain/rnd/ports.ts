import type { RndAnswer } from '../compliance/index.js';
import type { Executor } from '../ports.js';

export interface RndWork {
  e164: string;
  consent_date: string;
}

export interface RndRepository {
  readonly db: Executor;
  saveRndAnswer(ex: Executor, e164: string, a: RndAnswer & { checker: string }): Promise<void>;
  /** Pairs of current grants with no stored answer, or one checked before `before`. */
  dueRndChecks(before: Date, limit: number): Promise<RndWork[]>;
}
