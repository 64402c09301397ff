/**
 * Reassigned Numbers Database checkers (compliance-rules.md Part B §1.6): number + consent date
 * → reassigned / not_reassigned / no_data. Two implementations behind one interface: the FCC
 * query API and a simulated one for development and tests.
 */
import type { RndResult } from '../compliance/index.js';

export interface RndChecker {
  readonly name: string;
  /** Throws when the service cannot answer; the caller retries on its schedule. */
  query(e164: string, consentDate: string): Promise<RndResult>;
}

export class RndUnavailable extends Error {}

/**
 * Deterministic stand-in: a number whose last two digits are 99 was reassigned, 98 has no data,
 * anything else was not reassigned. Lets development and tests exercise every outcome.
 */
export class SimulatedRndChecker implements RndChecker {
  readonly name = 'simulated';
  async query(e164: string): Promise<RndResult> {
    if (e164.endsWith('99')) return 'reassigned';
    if (e164.endsWith('98')) return 'no_data';
    return 'not_reassigned';
  }
}
