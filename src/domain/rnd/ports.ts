import type { RndAnswer } from '../compliance/index.js';
import type { Executor } from '../ports.js';

export interface RndWork {
  e164: string;
  consent_date: string;
}

/** Reassigned-number answers: `repos.rnd`. */
export interface RndRepository {
  saveRndAnswer(ex: Executor, e164: string, a: RndAnswer & { checker: string }): Promise<void>;
  /** Pairs of current grants with no stored answer, or one checked before `before`. */
  dueRndChecks(ex: Executor, before: Date, limit: number): Promise<RndWork[]>;
}

export interface RndRepos {
  readonly db: Executor;
  rnd: RndRepository;
}
