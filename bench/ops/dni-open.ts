import { randomBytes } from 'node:crypto';
import { SessionBatcher } from '../../src/domain/dni/batcher.js';
import { createDniSession } from '../../src/domain/dni/sessions.js';
import type { Store } from '../../src/store/db.js';
import { dniSessionStore } from '../../src/store/repos/dni.js';
import type { DirectOperation } from '../direct.js';

/** One new visitor per call, opened through `opener` (built once per row). */
export function dniOpen(opener: (store: Store) => Pick<SessionBatcher, 'open'>): DirectOperation {
  return (store, seed) => {
    const sessions = opener(store);
    const run = randomBytes(4).toString('hex');
    let n = 0;
    const orgId = seed.orgId as string;
    const code = seed.campaignCode as string;
    return () =>
      createDniSession(
        sessions,
        orgId,
        { campaign_code: code, visitor_id: `s-${run}-${n++}` },
        new Date(),
      );
  };
}

/**
 * The allocation transaction the route runs, minus HTTP, one request per
 * statement (no batching).
 */
export const operation = dniOpen(
  (store) => new SessionBatcher(dniSessionStore(store), { inFlight: 1_000, maxSize: 1 }),
);
